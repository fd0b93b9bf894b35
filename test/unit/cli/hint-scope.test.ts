import { describe, expect, it } from 'vitest';
import { hintScope, scopeHints } from '../../../src/core/text/hint-scope.js';

describe('hintScope', () => {
  it.each([
    [['team', 'show', 'x'], []],
    [['--root', '/tmp/r', 'team', 'show'], ['--root', '/tmp/r']],
    [['--root=/tmp/r', '--team', 'a', 'task', 'list'], ['--root', '/tmp/r', '--team', 'a']],
    [['--root', '/a', '--root', '/b', 'inbox'], ['--root', '/b']],
    [['--claude', 'watch'], ['--claude']],
    [['--root', "/tmp/it's here", 'team', 'list'], ['--root', `'/tmp/it'\\''s here'`]],
    [['team', 'send', 'bob', '--', '--root', '/x'], []],
  ] as const)('%j → %j', (argv, scope) => {
    expect(hintScope(argv)).toEqual(scope);
  });
});

describe('scopeHints', () => {
  const scope = ['--root', '/tmp/r', '--team', 'a'];
  it('adds the scope to every suggested command', () => {
    expect(scopeHints('Add one with `mailroom team spawn bob`; then `mailroom task list`.', scope)).toBe(
      'Add one with `mailroom --root /tmp/r --team a team spawn bob`; then `mailroom --root /tmp/r --team a task list`.',
    );
  });
  it('leaves --team out of team create and team list', () => {
    expect(scopeHints('Create it with `mailroom team create b`.', scope)).toBe('Create it with `mailroom --root /tmp/r team create b`.');
    expect(scopeHints('See `mailroom team list`.', ['--team', 'a'])).toBe('See `mailroom team list`.');
  });
  it('leaves messages alone without a scope, and commands that already name one', () => {
    expect(scopeHints('Run `mailroom doctor --fix`.', [])).toBe('Run `mailroom doctor --fix`.');
    expect(scopeHints('Run `mailroom --root /x doctor`.', scope)).toBe('Run `mailroom --root /x doctor`.');
  });

  it('carries --store without its password (issue 23: a hint never prints a secret)', () => {
    expect(hintScope(['--store', 'redis://:s3cret@10.0.0.5:6379/2', 'team', 'list'])).toEqual(['--store', "'redis://:***@10.0.0.5:6379/2'"]);
    expect(scopeHints('Run `mailroom store grant`.', hintScope(['--store=redis://u:pw@h:1', 'inbox']))).toBe("Run `mailroom --store 'redis://u:***@h:1' store grant`.");
  });
});
