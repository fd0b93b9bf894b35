/**
 * The plain list of command names (src/cli/command-names.ts, read by did-you-mean hints in every
 * bundle) names exactly the commands the full CLI registers, in the same order.
 */
import { expect, it } from 'vitest';
import { COMMAND_TREE } from '../../../src/cli/command-names.js';
import { COMMANDS } from '../../../src/cli/main.js';
import { TEAM_COMMANDS } from '../../../src/cli/commands/team.js';
import { TASK_COMMANDS } from '../../../src/cli/commands/task.js';
import { STORE_COMMANDS } from '../../../src/cli/commands/store.js';
import { MESSAGE_COMMANDS } from '../../../src/cli/commands/message.js';
import { DEAD_LETTER_COMMANDS } from '../../../src/cli/commands/dead-letter.js';
import { LEASE_COMMANDS } from '../../../src/cli/commands/lease.js';

const nameOf = (m: { command?: string | readonly string[] }) => String(Array.isArray(m.command) ? m.command[0] : m.command).split(' ')[0];

it('COMMAND_TREE matches the command modules', () => {
  const real = {
    ...Object.fromEntries(COMMANDS.map((c) => [nameOf(c), [] as string[]])),
    team: TEAM_COMMANDS.map(nameOf),
    task: TASK_COMMANDS.map(nameOf),
    store: STORE_COMMANDS.map(nameOf),
    message: MESSAGE_COMMANDS,
    'dead-letter': DEAD_LETTER_COMMANDS,
    lease: LEASE_COMMANDS,
    completion: [],
  };
  expect(Object.keys(COMMAND_TREE)).toEqual(Object.keys(real));
  expect(COMMAND_TREE).toEqual(real);
});
