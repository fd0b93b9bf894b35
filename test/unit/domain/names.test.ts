import fc from 'fast-check';
import { thrown } from '../../helpers/thrown.js';
import { describe, expect, it } from 'vitest';
import { LEAD_NAME, NAME_PATTERN, RESERVED_NAMES, assertValidName, suggestName } from '../../../src/domain/names.js';
import { pathPart, taskListId, teamDirName } from '../../../src/store/fs/names.js';

const NFC = 'caf\u00e9';
const NFD = 'cafe\u0301';

describe('NAME_PATTERN', () => {
  it.each(['a', '0', 'researcher', 'team-lead', 'a-b-c', 'x1', 'a'.repeat(64), 'a-'])('accepts %j', (name) => {
    expect(NAME_PATTERN.test(name)).toBe(true);
  });

  it.each(['', '-a', 'A', 'Researcher', 'a_b', 'a.b', 'a b', 'a/b', '..', '../x', 'a\nb', NFC, NFD, '研究员', 'a'.repeat(65)])(
    'refuses %j',
    (name) => {
      expect(NAME_PATTERN.test(name)).toBe(false);
    },
  );

  it('keeps every valid name unchanged through both Claude Code sanitisers', () => {
    fc.assert(
      fc.property(fc.stringMatching(NAME_PATTERN), (name) => {
        expect(teamDirName(name)).toBe(name);
        expect(pathPart(name)).toBe(name);
        expect(taskListId(name)).toBe(name);
      }),
    );
  });
});

describe('sanitisers (reference §1)', () => {
  it('maps My_Team.v2 as the reference table says', () => {
    expect(teamDirName('My_Team.v2')).toBe('my-team-v2');
    expect(pathPart('My_Team.v2')).toBe('My_Team-v2');
    expect(taskListId('My_Team.v2')).toBe('my-team-v2');
  });

  it('never yields a path separator or a dot, whatever the input', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        for (const part of [teamDirName(name), pathPart(name), taskListId(name)]) {
          expect(part).not.toMatch(/[/\\.\n]/);
        }
      }),
    );
  });
});

describe('suggestName', () => {
  it.each([
    ['Alpha Team', 'alpha-team'],
    ['Researcher', 'researcher'],
    [NFC, 'cafe'],
    [NFD, 'cafe'],
    ['../x', 'x'],
    ['a/b', 'a-b'],
    ['a\nb', 'a-b'],
    ['--Lead--', 'lead'],
  ])('%j → %j', (input, expected) => {
    expect(suggestName(input)).toBe(expected);
  });

  it('trims a 300-character name to a valid 64-character one', () => {
    const s = suggestName('Q'.repeat(300));
    expect(s).toBe('q'.repeat(64));
  });

  it('suggests a valid name even when nothing ASCII is left, distinct for distinct inputs', () => {
    const a = suggestName('研究员');
    const b = suggestName('工程师');
    const c = suggestName('..');
    for (const s of [a, b, c]) expect(s).toMatch(NAME_PATTERN);
    expect(a).not.toBe(b);
  });

  it('always returns a valid name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (input) => {
        expect(suggestName(input)).toMatch(NAME_PATTERN);
      }),
    );
  });

  it('avoids names already taken (compared case-insensitively)', () => {
    expect(suggestName('Researcher', ['researcher'])).toBe('researcher-2');
    expect(suggestName('Researcher', ['researcher', 'RESEARCHER-2'])).toBe('researcher-3');
  });
});

describe('assertValidName', () => {
  it('accepts valid team and agent names', () => {
    expect(() => assertValidName('research', 'team')).not.toThrow();
    expect(() => assertValidName('alice', 'agent')).not.toThrow();
  });

  it.each(['研究チーム', 'Alpha Team', '../x', 'a/b', 'a\nb', '..', NFC, NFD, 'x'.repeat(300)])(
    'refuses %j with the allowed form and a valid suggestion',
    (name) => {
      const err = thrown(() => assertValidName(name, 'team'));
      expect(err.code).toBe('INVALID_NAME');
      expect(err.message).toContain(NAME_PATTERN.source);
      expect(err.message).toContain(JSON.stringify(name));
      const suggestion = err.details.suggestion as string;
      expect(suggestion).toMatch(NAME_PATTERN);
      expect(err.message).toContain(`Try "${suggestion}"`);
    },
  );

  it('names the kind of name in the message', () => {
    expect(thrown(() => assertValidName('Bob', 'agent')).message).toMatch(/^Invalid agent name/);
    expect(thrown(() => assertValidName('Bob', 'team')).message).toMatch(/^Invalid team name/);
  });

  it.each(RESERVED_NAMES)('refuses the reserved name %j for a new agent, stating the form and a suggestion', (name) => {
    const err = thrown(() => assertValidName(name, 'agent'));
    expect(err.code).toBe('INVALID_NAME');
    expect(err.message).toContain('reserved');
    expect(err.message).toContain(NAME_PATTERN.source);
    expect(err.message).toContain(`"${name}-2"`);
  });

  it('allows the lead name when asked to, and for teams', () => {
    expect(() => assertValidName(LEAD_NAME, 'agent', { allowLead: true })).not.toThrow();
    expect(() => assertValidName(LEAD_NAME, 'team')).not.toThrow();
  });

  it('suggests a free name when the obvious one is taken', () => {
    const err = thrown(() => assertValidName('Researcher', 'agent', { taken: ['team-lead', 'researcher'] }));
    expect(err.details.suggestion).toBe('researcher-2');
    const reserved = thrown(() => assertValidName('team-lead', 'agent', { taken: ['team-lead', 'team-lead-2'] }));
    expect(reserved.message).toContain('"team-lead-3"');
  });
});
