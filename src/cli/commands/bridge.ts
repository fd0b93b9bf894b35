/**
 * `mailroom bridge --claude --team T --store redis://…`: one long-running bridge per machine that
 * makes this machine's Claude Code team and a team in a shared Redis store one team (docs/bridge.md).
 * The bridge itself (src/bridge/) loads inside the handler only.
 */
import type { Argv, CommandModule } from 'yargs';
import type { GlobalArgs } from '../globals.js';

/** `bridge`. */
export const bridgeCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'bridge',
  describe: "Keep this machine's Claude Code team and a team in a shared Redis store one team (messages, read flags, members)",
  builder: (y) =>
    y
      .example('$0 bridge --claude --team demo --store redis://db.lan:6379', "Bridge Claude Code's team \"demo\" on this machine to Redis")
      .example('MAILROOM_STORE=redis://db.lan:6379 $0 bridge --claude --team demo', 'The same, the URL from the environment (hidden from ps)') as Argv<GlobalArgs>,
  handler: async (a) => {
    const { runBridgeCommand } = await import('../live/bridge.js');
    await runBridgeCommand(a);
  },
};
