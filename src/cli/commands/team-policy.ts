/**
 * `mailroom team policy`: show or change who may do what in the team (docs/approvals.md
 * "Policy"). Default open; the lead is never refused.
 */
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { emit, writeStdout } from '../output.js';
import { teamTarget, type GlobalArgs } from '../globals.js';

interface PolicyArgs extends GlobalArgs {
  allow?: string[];
  open?: string[];
  'max-message-bytes'?: number;
}

function parseAllow(spec: string): { rule: string; who: string[] } {
  const i = spec.indexOf('=');
  if (i <= 0) throw new MailroomError('INVALID_ARGUMENT', `--allow takes <rule>=<who,…> (e.g. createTasks=team-lead,alice or message.bob=@lead); got "${spec}".`);
  return { rule: spec.slice(0, i), who: spec.slice(i + 1).split(',').map((w) => w.trim()).filter((w) => w !== '') };
}

/** `team policy`. */
export const teamPolicyCommand: CommandModule<GlobalArgs, PolicyArgs> = {
  command: 'policy',
  describe: 'Show or change who may message whom, create, assign or delete tasks, stop members',
  builder: (y) =>
    y
      .option('allow', { type: 'string', array: true, describe: 'rule=who,… (rules: createTasks, assignTasks, deleteTasks, stopMembers, message.<sender>, message.*; who: names, *, @lead; empty: only the lead)' })
      .option('open', { type: 'string', array: true, describe: 'Remove a rule: everyone may again' })
      .option('max-message-bytes', { type: 'number', describe: 'Largest message text a send accepts, in UTF-8 bytes (default 262144 = 256 KiB, at least 1024)' })
      .example('$0 team policy --allow createTasks=alice --allow message.*=@lead', 'Only alice (and the lead) create tasks; teammates message only the lead')
      .example('$0 team policy --open createTasks', 'Everyone may create tasks again') as Argv<PolicyArgs>,
  handler: async (a) => {
    const target = await teamTarget(a);
    if (a['max-message-bytes'] !== undefined) await setMessageLimit(target, a['max-message-bytes'], a.json);
    const changes = [...(a.allow ?? []).map(parseAllow), ...(a.open ?? []).map((rule) => ({ rule, who: undefined }))];
    let policy: Record<string, unknown>;
    if (changes.length > 0) {
      const { changePolicy } = await import('../../core/teams/policy.js');
      policy = await changePolicy(target, changes);
    } else {
      policy = (await target.root.team.readSettings(target.team)).policy ?? {};
    }
    emit(a.json, policy, () => {
      const lines = Object.entries(policy).flatMap(([rule, who]) =>
        rule === 'message' ? Object.entries(who as Record<string, string[]>).map(([s, w]) => `message.${s}: ${w.join(', ') || '(only the lead)'}`) : [`${rule}: ${(who as string[]).join(', ') || '(only the lead)'}`],
      );
      return lines.length > 0 ? lines : [`Team ${target.team} is open: every member may do everything.`];
    });
  },
};

/** `--max-message-bytes N`: the team's `maxMessageBytes` setting. @throws USAGE (under 1024) */
async function setMessageLimit(target: { root: import('../../store/selection.js').Stores; team: string }, bytes: number, json: boolean | undefined): Promise<void> {
  const { MIN_MAX_MESSAGE_BYTES } = await import('../../protocol/settings.js');
  if (bytes < MIN_MAX_MESSAGE_BYTES) throw new MailroomError('USAGE', `--max-message-bytes must be at least ${MIN_MAX_MESSAGE_BYTES}; got ${bytes}.`);
  await target.root.team.updateSettings(target.team, { maxMessageBytes: bytes }, { actor: 'user' });
  if (!json) writeStdout(`Team ${target.team} accepts messages up to ${bytes} bytes (maxMessageBytes).\n`);
}
