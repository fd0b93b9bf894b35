/**
 * Global CLI options (`--root`, `--claude`, `--team`, `--json`) and how a command turns them into
 * library options.
 */
import type { Argv } from 'yargs';
import { FsStore } from '../store/fs-store.js';
import { resolveRoot } from '../store/paths.js';
import type { Store } from '../store/store.js';

/** Parsed global options every command sees. */
export interface GlobalArgs {
  root?: string | undefined;
  claude?: boolean | undefined;
  team?: string | undefined;
  json?: boolean | undefined;
}

/** Declares the global options on the top-level parser. */
export function withGlobals<T>(y: Argv<T>): Argv<T & GlobalArgs> {
  return y
    .option('root', { type: 'string', describe: 'Store root (default $MAILROOM_ROOT, else ~/.mailroom)', global: true })
    .option('claude', { type: 'boolean', describe: "Work on Claude Code's own teams ($CLAUDE_CONFIG_DIR or ~/.claude)", global: true })
    .option('team', { type: 'string', describe: 'Team (default $MAILROOM_TEAM, else the only team)', global: true })
    .option('json', { type: 'boolean', describe: 'Print machine-readable JSON', global: true }) as Argv<T & GlobalArgs>;
}

/** Opens the store the global options point at; lock warnings go to stderr. */
export function openStore(args: GlobalArgs): Store {
  const root = resolveRoot({ root: args.root, claude: args.claude });
  return new FsStore(root, { onWarning: (m) => process.stderr.write(`${m}\n`) });
}

/** Store plus the team to act on (resolved from --team, $MAILROOM_TEAM, or the only team). */
export async function teamTarget(args: GlobalArgs): Promise<{ root: Store; team: string }> {
  const root = openStore(args);
  const { resolveTeam } = await import('../core/teams.js');
  const team = await resolveTeam({ root, team: args.team, envTeam: process.env.MAILROOM_TEAM });
  return { root, team };
}
