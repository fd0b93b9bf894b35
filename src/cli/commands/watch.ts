/**
 * `mailroom watch [team]`: a live view of a team. On a terminal, an ink screen (roster, task board,
 * message flow; keys to open, send and quit); otherwise (piped, CI, another agent) one line per
 * event, or NDJSON with `--json`. ink and react load inside the handler only.
 */
import { sweptTeamTarget } from '../swept-target.js';
import type { Argv, CommandModule } from 'yargs';
import { teamTarget, type GlobalArgs } from '../globals.js';
import { terminalStreams } from '../output.js';

interface WatchArgs extends GlobalArgs {
  plain?: boolean;
  record?: boolean;
}

/** `watch`. */
export const watchCommand: CommandModule<GlobalArgs, WatchArgs> = {
  command: 'watch [team]',
  describe: 'Live view of a team: roster with member states, task board, message flow',
  builder: (y) =>
    y
      .positional('team', { type: 'string', describe: 'Team to watch (default: --team, $MAILROOM_TEAM, or the only team)' })
      .option('plain', { type: 'boolean', describe: 'One plain line per event even on a terminal' })
      .option('record', { type: 'boolean', default: true, describe: 'Journal what is seen (--no-record: only look)' })
      .example('$0 watch demo', 'Open the live view of team "demo" (q quits)')
      .example('$0 watch --claude', "Watch Claude Code's own team (e.g. session-1a2b3c4d)")
      .example('$0 watch demo --json | jq .kind', 'Stream events as NDJSON') as Argv<WatchArgs>,
  handler: async (a) => {
    const { root, team } = await sweptTeamTarget(a);
    const record = a.record !== false;
    // watch notices too: it sweeps on its own timer while it runs (docs/runtime.md "Dead members").
    const { startSweeper } = await import('../../core/members/dead-members.js');
    startSweeper({ root, team });
    if (a.json || a.plain || !process.stdout.isTTY || !process.stdin.isTTY) {
      const { runPlainWatch } = await import('../live/plain.js');
      await runPlainWatch({ store: root, team, json: a.json === true, record });
      return;
    }
    // React's development build is several times slower to render; the screen is a product, not a test.
    process.env.NODE_ENV ??= 'production';
    // ink renders nothing but the last frame when it thinks it runs in CI (is-in-ci reads $CI at
    // import). Both ends are a terminal here, so a person is looking: show the live screen.
    for (const key of ['CI', 'CONTINUOUS_INTEGRATION']) if (process.env[key] !== undefined) process.env[key] = 'false';
    const { runTui } = await import('../../tui/run.js');
    // The CLI is the adapter that owns the process: the screen gets its streams and arguments from here.
    await runTui({ store: root, team, record, ...terminalStreams(), args: process.argv.slice(2) });
  },
};
