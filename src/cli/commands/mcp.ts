/**
 * `mailroom mcp --as <name>`: serve one team member's tools over MCP (stdio), so any MCP client
 * (Claude Code, Codex CLI, Cursor …) joins the team. The MCP SDK loads inside the handler only.
 */
import type { Argv, CommandModule } from 'yargs';
import { resolve } from 'node:path';
import { declareLine, type CommandLine } from '../command-line.js';
import { teamTarget, type GlobalArgs } from '../globals.js';
import { writeStderr } from '../output.js';
import { terminalSafe } from '../../core/text/terminal-text.js';

interface McpArgs extends GlobalArgs {
  as: string;
  model?: string;
  type?: string;
  capability?: string[];
}

/**
 * `mcp`'s line (src/cli/command-line.ts), read without yargs by its own bundle (src/cli/verbs/mcp.ts)
 * when plain; `--capability` (an array option) is declared beside it, so a line with it goes to yargs.
 */
export const MCP_LINE: CommandLine = {
  words: ['mcp'],
  positionals: [],
  options: {
    as: { type: 'string', required: true, describe: 'Member name to act as (^[a-z0-9][a-z0-9-]{0,63}$ for a new member)' },
    model: { type: 'string', describe: 'Model id recorded when registering (default "unknown")' },
    type: { type: 'string', describe: 'agentType recorded when registering' },
  },
};

/** `mcp`. */
export const mcpCommand: CommandModule<GlobalArgs, McpArgs> = {
  command: 'mcp',
  describe: 'Serve MCP over stdio as a team member (registers --as if it is not one); see docs/mcp.md',
  builder: (y) =>
    declareLine(y, MCP_LINE)
      .option('capability', { type: 'string', array: true, describe: 'Capabilities recorded when registering, e.g. review,csv (repeatable)' })
      .example('$0 mcp --team research --as codex', 'Join team "research" as "codex" (put this in the MCP client config)')
      .example('$0 mcp --claude --team compat --as codex', "Join Claude Code's own team \"compat\"") as Argv<McpArgs>,
  handler: async (a) => {
    // Both flags name a store: --root wins (docs/mcp.md). Said on stderr, which MCP keeps free for
    // diagnostics, so the client's log shows which store the agent joins and why (docs/decisions.md).
    if (a.claude && a.root) writeStderr(`mailroom mcp: using the store at ${terminalSafe(resolve(a.root))}: --root wins over --claude (docs/mcp.md); give one of them to silence this line.\n`);
    const target = await teamTarget(a);
    const { serveMcp } = await import('../../mcp/index.js');
    await serveMcp({ store: target.root, team: target.team, as: a.as, model: a.model, type: a.type, capabilities: a.capability });
  },
};
