/**
 * `mailroom mcp --claude --root <dir>`: --root wins (docs/mcp.md), and the server says so in one line
 * on stderr before it starts (stdout carries MCP frames only), so an MCP client's log shows which
 * store the agent joined and why — before, --root won without a word (new-user trial, session 18).
 * Real CLI processes; Claude Code's directory is a temp one that must stay untouched.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { cleanEnv, cliRootForFile, listFiles, mailroom } from '../helpers/store-files.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const root = cliRootForFile(['team', 'create', 'demo'], ['team', 'spawn', 'dave']);
const note = (dir: string) => `mailroom mcp: using the store at ${dir}: --root wins over --claude (docs/mcp.md); give one of them to silence this line.\n`;

describe('mailroom mcp --claude --root <dir>', () => {
  it('serves from --root and says so once on stderr, nothing on stdout but MCP; Claude Code\'s directory untouched', async () => {
    const claude = await makeTempDir('mailroom-claude-dir-');
    try {
      // stdin at EOF: the server starts, joins, and stops (exit 0) as when its client closes.
      const run = spawnSync(process.execPath, [BIN, 'mcp', '--claude', '--root', root(), '--team', 'demo', '--as', 'dave'], { input: '', encoding: 'utf8', env: cleanEnv({ CLAUDE_CONFIG_DIR: claude.path }), timeout: 30_000 });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe('');
      const lines = run.stderr.split('\n');
      expect(`${lines[0]}\n`).toBe(note(root()));
      expect(run.stderr.split(note(root())).length).toBe(2); // once
      expect(run.stderr).toContain(`acting as dave@demo (store ${root()})`);
      expect(await listFiles(claude.path)).toEqual([]);
    } finally {
      await claude.cleanup();
    }
  });

  it('before an error too, so the refusal is read against the right store', async () => {
    const run = await mailroom(root(), 'mcp', '--claude', '--team', 'nope', '--as', 'dave');
    expect(run.code).not.toBe(0);
    expect(run.stderr.startsWith(note(root()))).toBe(true);
    expect(run.stderr).toContain('TEAM_NOT_FOUND');
  });

  it('one of them alone: no such line', async () => {
    const run = await mailroom(root(), 'mcp', '--team', 'nope', '--as', 'dave');
    expect(run.stderr).not.toContain('wins over');
    const claude = await makeTempDir('mailroom-claude-dir-');
    try {
      const alone = spawnSync(process.execPath, [BIN, 'mcp', '--claude', '--team', 'nope', '--as', 'dave'], { input: '', encoding: 'utf8', env: cleanEnv({ CLAUDE_CONFIG_DIR: claude.path }), timeout: 30_000 });
      expect(alone.stderr).not.toContain('wins over');
      expect(alone.stderr).toContain('TEAM_NOT_FOUND');
    } finally {
      await claude.cleanup();
    }
  });
});
