/**
 * `mailroom team resume [team]`: restarts the process-backend teammates that were running when
 * their runtime or the machine died (runtime/lifecycle/resume.ts).
 */
import type { Argv, CommandModule } from 'yargs';
import { emit } from '../output.js';
import { teamTarget, type GlobalArgs } from '../globals.js';

type Args = GlobalArgs & { name?: string };

/** `team resume`. */
export const teamResumeCommand: CommandModule<GlobalArgs, Args> = {
  command: 'resume [name]',
  describe: 'Restart the process-backend teammates that were running when their runtime or the machine died',
  builder: (y) =>
    y
      .positional('name', { type: 'string', describe: 'Team (default: --team, $MAILROOM_TEAM, or the only team)' })
      .example('$0 team resume research', 'Start again the `mailroom agent` processes of team "research" that died') as Argv<Args>,
  handler: async (a) => {
    const target = await teamTarget({ ...a, team: a.name ?? a.team });
    const { resumeTeam } = await import('../../runtime/lifecycle/resume.js');
    const resumed = await resumeTeam(target);
    emit(a.json, resumed, () => (resumed.length === 0 ? [`No process-backend teammate of ${target.team} was recorded running: nothing to resume.`] : resumed.map(resumeLine)));
    if (resumed.some((r) => r.outcome === 'failed')) process.exitCode = 1;
  },
};

function resumeLine(r: { name: string; outcome: string; pid?: number; error?: string }): string {
  if (r.outcome === 'restarted') return `${r.name}: restarted (pid ${r.pid})`;
  if (r.outcome === 'running') return `${r.name}: still running${r.pid !== undefined ? ` (pid ${r.pid})` : ''}`;
  if (r.outcome === 'left') return `${r.name}: no longer in the team (stale record removed)`;
  return `${r.name}: could not restart: ${r.error ?? 'unknown error'}`;
}

