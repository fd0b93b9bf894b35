/**
 * A name refused for its form whose lowercase spelling is taken: `team create Research` beside a
 * team "research" suggested "research-2" without saying why not "research" (new-user trial,
 * session 19). The refusal now says the plain name exists. Real CLI processes; nothing written.
 */
import { describe, expect, it } from 'vitest';
import { cliRootForFile, mailroom, snapshotBytes } from '../helpers/store-files.js';

const root = cliRootForFile(['team', 'create', 'research'], ['team', 'spawn', 'alice']);

describe('an invalid name whose lowercase form is taken', () => {
  it.each([
    { args: ['team', 'create', 'Research'], says: 'Try "research-2" (team "research" exists already).' },
    { args: ['team', 'spawn', 'Alice'], says: 'Try "alice-2" (agent "alice" exists already).' },
  ])('$args: exit 2, the suggestion says the plain name exists, nothing written', async ({ args, says }) => {
    const before = await snapshotBytes(root());
    const run = await mailroom(root(), ...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`INVALID_NAME: Invalid ${args[1] === 'create' ? 'team' : 'agent'} name "${args[2]}"`);
    expect(run.stderr).toContain(says);
    expect(await snapshotBytes(root())).toEqual(before);
  });

  it('a free lowercase form is suggested as before, with no such note', async () => {
    const run = await mailroom(root(), 'team', 'create', 'Docs');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Try "docs".');
  });
});
