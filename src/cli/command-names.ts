/**
 * Names of every command and subcommand, for did-you-mean hints (src/cli/usage-hints.ts). Kept
 * as plain words so a verb's own bundle (src/cli/verbs/) can name commands it does not load;
 * test/unit/cli/command-names.test.ts checks them against the command modules.
 */
import type { CommandTree } from './usage-hints.js';

/** Top-level commands (in src/cli/main.ts order) with their subcommands; `completion` is yargs'. */
export const COMMAND_TREE: CommandTree = {
  team: ['create', 'list', 'show', 'delete', 'restore', 'resume', 'spawn', 'stop', 'send', 'ask', 'broadcast', 'policy', 'rekey', 'unsign', 'endorse'],
  task: ['add', 'list', 'show', 'update', 'claim', 'delete'],
  inbox: [],
  message: ['show'],
  'dead-letter': ['list', 'retry'],
  run: [],
  agent: [],
  mcp: [],
  watch: [],
  dashboard: [],
  lease: ['acquire', 'release', 'list', 'guard', 'hook'],
  log: [],
  doctor: [],
  store: ['copy', 'grant'],
  bridge: [],
  requests: [],
  approve: [],
  deny: [],
  completion: [],
};
