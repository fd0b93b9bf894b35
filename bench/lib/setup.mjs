// Building teams and histories for bench modules through the built library (dist/).
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createTeam } from '../../dist/core/teams/team-lifecycle.js';
import { spawnMember } from '../../dist/core/members/spawn.js';
import { makeInboxEntry } from '../../dist/protocol/inbox.js';
import { Layout } from '../../dist/store/fs/paths.js';
import { openFsStores } from '../../dist/store/open.js';

/** Creates team `t` in `root` with the lead and `members` ({ name, backend? } or names). */
export async function makeTeam(root, members = []) {
  await createTeam({ root: openFsStores(root), team: 't' });
  for (const m of members) {
    const { name, backend } = typeof m === 'string' ? { name: m } : m;
    await spawnMember({ root: openFsStores(root), team: 't', name, backend });
  }
}

/** Writes `agent`'s inbox by hand with `count` read messages of ~`pad` characters. */
export async function writeHistory(root, agent, count, pad = 200) {
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const filler = 'x'.repeat(pad);
  const entries = Array.from({ length: count }, (_, i) => {
    const e = makeInboxEntry({ from: 'a', text: `history ${i} ${filler}`, timestamp: new Date(start + i).toISOString(), msgId: randomUUID() });
    e.read = true;
    return e;
  });
  const path = new Layout(root).inboxPath('t', agent);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, JSON.stringify(entries, null, 2), { mode: 0o600 });
}

/**
 * Gives member `name` of team `t` Claude Code's in-process shape (`backendType` and `tmuxPaneId`
 * "in-process", as a 2.1.109 lead records an in-process teammate): such an inbox is never archived
 * automatically (src/core/inbox-archive.ts). A member made by `makeTeam` is one mailroom runs, and
 * its read history IS archived.
 */
export async function makeClaudeInProcess(root, name) {
  const path = new Layout(root).configPath('t');
  const config = JSON.parse(await readFile(path, 'utf8'));
  for (const m of config.members) if (m.name === name) Object.assign(m, { backendType: 'in-process', tmuxPaneId: 'in-process' });
  await writeFile(path, JSON.stringify(config, null, 2), { mode: 0o600 });
}
