// Regenerates docs/watch-screen.txt: builds a small team with fixed timestamps in a temp root,
// runs the real `mailroom watch` in a 120×40 tmux session (TZ=UTC) and saves what the screen shows.
// Usage: npm run build && node scripts/watch-screen.mjs [out-file]
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openFsStores, addTask, createTeam, sendMessage, sendStructured, spawnMember, updateTask } from '../dist/index.js';

const BIN = fileURLToPath(new URL('../bin/mailroom.js', import.meta.url));
const OUT = process.argv[2] ?? fileURLToPath(new URL('../docs/watch-screen.txt', import.meta.url));
const T0 = Date.UTC(2026, 2, 1, 9, 30, 0);
let tick = 0;
const now = () => T0 + ++tick * 7_000;

const root = await mkdtemp(join(tmpdir(), 'mailroom-screen-'));
const socket = `mailroom-screen-${process.pid}`;
const tmux = (...args) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
try {
  const store = openFsStores(root);
  const o = { root: store, team: 'docs-site', now };
  await createTeam({ ...o, description: 'Write the user guide', leadModel: 'claude-opus-4-6' });
  await spawnMember({ ...o, name: 'researcher', model: 'anthropic:claude-sonnet-4-6', prompt: 'Collect sources for the guide' });
  await spawnMember({ ...o, name: 'writer', model: 'anthropic:claude-sonnet-4-6', backend: 'tmux', paneId: '%3', prompt: 'Draft the guide from the sources' });
  await spawnMember({ ...o, name: 'reviewer', model: 'openai:gpt-5', prompt: 'Review every section' });
  await spawnMember({ ...o, name: 'tester', model: 'worker', prompt: 'Check every example runs' });
  await addTask({ ...o, subject: 'Collect sources', owner: 'researcher' });
  await addTask({ ...o, subject: 'Draft the guide', blockedBy: ['1'] });
  await addTask({ ...o, subject: 'Review the draft', blockedBy: ['2'] });
  await addTask({ ...o, subject: 'Write runnable examples' });
  await addTask({ ...o, subject: 'Publish the site', blockedBy: ['3', '4'] });
  await updateTask({ ...o, id: '1', status: 'in_progress', as: 'researcher' });
  await sendMessage({ ...o, from: 'researcher', to: 'team-lead', text: 'Sources collected: 12 papers, notes in notes/sources.md', summary: 'Sources collected' });
  await updateTask({ ...o, id: '1', status: 'completed', as: 'researcher' });
  await sendStructured({ ...o, from: 'researcher', to: 'team-lead', message: { type: 'idle_notification', idleReason: 'available', completedTaskId: '1', completedStatus: 'resolved' } });
  await updateTask({ ...o, id: '2', owner: 'writer', status: 'in_progress' });
  await store.team.updateMember('docs-site', 'writer', { isActive: true });
  await sendMessage({ ...o, from: 'writer', to: 'team-lead', text: 'Outline ready; writing section 2 of 5 now', summary: 'Outline ready' });
  await sendMessage({ ...o, to: 'writer', text: 'Keep it under 2 000 words, please' });
  await sendStructured({
    ...o,
    from: 'reviewer',
    to: 'team-lead',
    message: { type: 'permission_request', request_id: 'perm-1772357645000-k3j9x2a', agent_id: 'reviewer', tool_name: 'Bash', tool_use_id: 'toolu_01', description: 'npx markdownlint docs/', input: { command: 'npx markdownlint docs/' }, permission_suggestions: [] },
  });

  const command = `env TZ=UTC ${process.execPath} ${BIN} --root ${root} watch docs-site --no-record; sleep 5`;
  tmux('new-session', '-d', '-x', '120', '-y', '40', command);
  let screen = '';
  for (let i = 0; i < 100 && !screen.includes('Messages ('); i++) {
    await new Promise((r) => setTimeout(r, 100));
    screen = tmux('capture-pane', '-p', '-t', '0');
  }
  await writeFile(OUT, `${screen.trimEnd()}\n`);
  console.log(`wrote ${OUT}`);
} finally {
  try {
    tmux('kill-server');
  } catch {}
  await rm(root, { recursive: true, force: true });
}
