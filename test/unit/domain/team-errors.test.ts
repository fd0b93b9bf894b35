/**
 * TEAM_NOT_FOUND's wording: the name as typed, and a `team create` hint only for a name that
 * `team create` accepts (session 14: `team show '- x'` suggested `mailroom team create - x`,
 * which a shell splits into two words and the name rule refuses anyway).
 */
import { describe, expect, it } from 'vitest';
import { teamNotFound } from '../../../src/domain/team-errors.js';

describe('teamNotFound', () => {
  it('suggests creating a valid name', () => {
    expect(teamNotFound('nobody', '/tmp/r', ['demo']).message).toBe('Team "nobody" not found in /tmp/r. Teams there: demo. Create it with `mailroom team create nobody`.');
  });

  it('names the team close to a mistyped one (new-user trial, session 17: `--team opz` got no suggestion, a member typo did)', () => {
    expect(teamNotFound('opz', '/tmp/r', ['ops', 'demo']).message).toBe('Team "opz" not found in /tmp/r. Did you mean "ops"? Teams there: ops, demo. Create it with `mailroom team create opz`.');
    expect(teamNotFound('Demo', '/tmp/r', ['demo']).message).toBe('Team "Demo" not found in /tmp/r. Did you mean "demo"? Teams there: demo.');
    expect(teamNotFound('zzzzzz', '/tmp/r', ['ops']).message).not.toContain('Did you mean');
  });

  it.each(['- x', '-x', 'a;rm -rf ~', 'x'.repeat(65)])('suggests no create for %j, which the name rule refuses', (name) => {
    const message = teamNotFound(name, '/tmp/r', ['demo']).message;
    expect(message).toBe(`Team ${JSON.stringify(name)} not found in /tmp/r. Teams there: demo.`);
    expect(message).not.toContain('team create');
  });

  it('quotes a name holding quotes or control characters as JSON does', () => {
    expect(teamNotFound('a"b\n', 'the Redis store at redis://h:1').message).toMatch(/^Team "a\\"b\\n" not found in the Redis store at redis:\/\/h:1\. List teams with `mailroom team list`\.$/);
  });
});
