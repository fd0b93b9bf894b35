// Building teams and histories for bench modules through the built library (dist/).
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createTeam } from '../../dist/core/teams/team-lifecycle.js';
import { spawnMember } from '../../dist/core/members/spawn.js';
import { makeInboxEntry } from '../../dist/protocol/inbox.js';
import { Layout } from '../../dist/store/fs/paths.js';

/** Creates team `t` in `root` with the lead and `members` ({ name, backend? } or names). */
export async function makeTeam(root, members = []) {
  await createTeam({ root, team: 't' });
  for (const m of members) {
    const { name, backend } = typeof m === 'string' ? { name: m } : m;
    await spawnMember({ root, team: 't', name, backend });
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
