/**
 * Did-you-mean for member names: requireMember names the member a mistyped name stands for, in the
 * message and in details.suggestion, and suggests nothing when no member is close.
 */
import { describe, expect, it } from 'vitest';
import { requireMember } from '../../../src/domain/roster.js';
import { closestMatch } from '../../../src/domain/suggest.js';
import { MailroomError } from '../../../src/errors.js';
import type { TeamConfig } from '../../../src/protocol/config.js';

const config = {
  name: 'demo',
  leadAgentId: 'team-lead@demo',
  members: [{ name: 'team-lead', agentId: 'team-lead@demo' }, { name: 'alice', agentId: 'alice@demo' }, { name: 'researcher', agentId: 'researcher@demo' }],
} as unknown as TeamConfig;

function thrown(name: string): MailroomError {
  try {
    requireMember(config, name, 'recipient');
  } catch (err) {
    return err as MailroomError;
  }
  throw new Error(`requireMember accepted ${name}`);
}

describe('closestMatch', () => {
  it.each([
    ['Alice', 'alice'],
    ['ALICE', 'alice'],
    ['alcie', 'alice'],
    ['researhcer', 'researcher'],
    ['res', 'researcher'],
    ['team-led', 'team-lead'],
  ])('%s → %s', (word, expected) => {
    expect(closestMatch(word, ['team-lead', 'alice', 'researcher'])).toBe(expected);
  });

  it('two neighbouring letters swapped beat another word as far by edit distance (dashboard --prot said "Did you mean --root?")', () => {
    expect(closestMatch('prot', ['root', 'port', 'host'])).toBe('port');
    expect(closestMatch('stauts', ['subject', 'status', 'owner'])).toBe('status');
    expect(closestMatch('root', ['root', 'port'])).toBe('root');
  });

  it.each(['zed', 'bob', 'general-purpose'])('%s → nothing', (word) => {
    expect(closestMatch(word, ['team-lead', 'alice', 'researcher'])).toBeUndefined();
  });
});

describe('requireMember', () => {
  it('Alice: MEMBER_NOT_FOUND naming the word typed and "alice", with details.suggestion', () => {
    const err = thrown('Alice');
    expect(err.code).toBe('MEMBER_NOT_FOUND');
    expect(err.message).toContain('No recipient named "Alice"');
    expect(err.message).toContain('Did you mean "alice"?');
    expect(err.details).toMatchObject({ name: 'Alice', suggestion: 'alice', members: ['team-lead', 'alice', 'researcher'] });
  });

  it('a name close to no member: no suggestion', () => {
    const err = thrown('zed');
    expect(err.message).not.toContain('Did you mean');
    expect(err.details).not.toHaveProperty('suggestion');
  });
});
