/**
 * `mailroom doctor [--fix]`: report (and repair) corrupt files, temporary files left by killed
 * writers, stale locks, one-sided or dangling task dependencies, tasks owned by departed members
 * and inboxes of non-members. Exits 7 (STORE_UNHEALTHY) while problems remain.
 */
import type { Stores } from '../../store/selection.js';
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { emit } from '../output.js';
import { openStore, type GlobalArgs } from '../globals.js';
import type { DoctorFinding, DoctorReport } from '../../core/doctor/doctor.js';
import { plural } from '../../core/text/plural.js';
import { hintScope, scopeHints } from '../../core/text/hint-scope.js';

interface DoctorArgs extends GlobalArgs {
  fix?: boolean;
}

/** `doctor`. */
export const doctorCommand: CommandModule<GlobalArgs, DoctorArgs> = {
  command: 'doctor',
  describe: 'Find (and with --fix repair) corrupt files, leftover temp files, stale locks and inconsistent team state',
  builder: (y) =>
    y
      .option('fix', { type: 'boolean', describe: 'Repair: quarantine corrupt files (renamed, never overwritten), remove orphan temp files and stale locks, fix task links' })
      .example('$0 doctor', 'Report problems; exit 7 if there are any')
      .example('$0 doctor --fix --json', 'Repair and print the report as JSON') as Argv<DoctorArgs>,
  handler: async (a) => {
    const { doctor } = await import('../../core/doctor/doctor.js');
    const root = await openStore(a);
    await sweepTeams(root, a.team);
    const report = await doctor({ root, team: a.team, fix: a.fix });
    emit(a.json, report, () => render(report));
    if (report.remaining > 0) {
      const hint = report.fixed ? 'See the notes above for why they were left.' : repairHint(report);
      throw new MailroomError('STORE_UNHEALTHY', `${plural(report.remaining, 'problem')} remain${report.remaining === 1 ? 's' : ''} in ${report.root}. ${hint}`, {
        details: { remaining: report.remaining },
      });
    }
  },
};

/**
 * What to do about the problems of a report made without --fix: `doctor --fix` when it can repair
 * any, else change the server's settings (--fix never changes a server's configuration).
 */
function repairHint(report: DoctorReport): string {
  const open = report.findings.filter((f) => f.severity === 'problem');
  if (open.length > 0 && open.every((f) => f.kind === 'server-setting')) return "Change the server's settings as each line above says (doctor --fix does not change a server's configuration).";
  return 'Run `mailroom doctor --fix` to repair them.';
}

/**
 * The findings, a summary (with the bytes freed only when some were: moving a file aside frees
 * none), and where each record moved aside went, in full (the finding lines name the file only).
 */
function render(report: DoctorReport): string[] {
  const lines = report.findings.map(line);
  const freed = report.fixed && report.bytesFreed > 0 ? `; ${plural(report.bytesFreed, 'byte')} freed` : '';
  const fixedCount = report.problems - report.remaining;
  const summary = report.problems === 0 ? nothingFound(report) : `${plural(report.problems, 'problem')} found, ${fixedCount} repaired${freed}`;
  const moved = report.findings.flatMap((f) => (f.repair?.done && f.repair.movedTo !== undefined ? [`moved aside to ${f.repair.movedTo}`] : []));
  return [...lines, summary, ...moved];
}

/**
 * The line of a report without problems. A store with no team says so, and how to make one (the
 * command carries the line's --root/--team): "No problems found in ~/.mailroom" on a fresh HOME
 * named a directory that did not exist as if it had been checked (new-user trial).
 */
function nothingFound(report: DoctorReport): string {
  if (report.teams > 0) return `No problems found in ${report.root}`;
  const create = scopeHints('Create a team with `mailroom team create <team>`', hintScope(process.argv.slice(2)));
  if (!report.exists) return `${report.root} does not exist yet: no team has been created there, so there is nothing to check. ${create}, or point --root (or --store) at the store that has your team.`;
  return `No problems found in ${report.root}, which holds no team yet. ${create}.`;
}

function line(f: DoctorFinding): string {
  const tag = f.severity === 'info' ? 'info' : f.kind;
  const repair = f.repair ? ` → ${f.repair.done ? 'fixed' : 'not fixed'}: ${f.repair.note}` : '';
  return `[${tag}] ${f.message}${repair}`;
}

/** The dead-member sweep of the team (or of every team) before the check (issue 23 item 1); never fails. */
async function sweepTeams(root: Stores, team: string | undefined): Promise<void> {
  const { sweepQuietly } = await import('../../core/members/dead-members.js');
  const teams = team !== undefined ? [team] : await root.team.listTeams().then((refs) => refs.map((r) => r.name), () => []);
  for (const t of teams) await sweepQuietly({ root, team: t });
}
