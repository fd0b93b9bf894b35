/**
 * A message size limit (issue 23): a message whose text is over the team's `maxMessageBytes`
 * (default 256 KiB) is refused with MESSAGE_TOO_LARGE (exit 2) naming its size and the setting, and
 * nothing is stored; `team policy --max-message-bytes` changes the limit for the team. The check is
 * in the send use case, so every path (team send, broadcast, MCP, the runtime) has it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { sendMessage } from '../../src/core/messages/send.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-size-');
  await mailroomOk(tmp.path, 'team', 'create', 'demo');
  await mailroomOk(tmp.path, 'team', 'spawn', 'alice');
});
afterAll(() => tmp.cleanup());

it('refuses a message over 256 KiB by default, naming its size and the setting; stores nothing', async () => {
  // (A 256 KiB argument is over Linux's per-argument limit: the default is checked through the use case every CLI path calls.)
  const big = 'x'.repeat(256 * 1024 + 1);
  const refused = sendMessage({ root: openFsStores(tmp.path), team: 'demo', to: 'alice', text: big });
  await expect(refused).rejects.toMatchObject({ code: 'MESSAGE_TOO_LARGE', details: { bytes: 262145, maxMessageBytes: 262144 } });
  await expect(refused).rejects.toThrow(/262145 bytes, over team demo's limit of 262144 bytes \(setting maxMessageBytes/);
  expect(await openFsStores(tmp.path).team.readInbox('demo', 'alice')).toEqual([]);
  await sendMessage({ root: openFsStores(tmp.path), team: 'demo', to: 'alice', text: 'x'.repeat(256 * 1024) }); // exactly the limit passes
});

it('team policy --max-message-bytes sets the limit for the team (multi-byte text counted in UTF-8 bytes)', async () => {
  expect((await mailroom(tmp.path, 'team', 'policy', '--max-message-bytes', '10')).stderr).toContain('at least 1024');
  const set = await mailroomOk(tmp.path, 'team', 'policy', '--max-message-bytes', '1024');
  expect(set.stdout).toContain('up to 1024 bytes');
  expect((await openFsStores(tmp.path).team.readSettings('demo')).maxMessageBytes).toBe(1024);
  const run = await mailroom(tmp.path, 'team', 'send', 'alice', `${'é'.repeat(512)}€`); // 1027 bytes, 513 characters
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('1027 bytes');
  expect(run.stderr).toContain('MESSAGE_TOO_LARGE');
  expect(run.stderr).toContain('team policy --max-message-bytes');
  expect((await mailroom(tmp.path, 'team', 'broadcast', 'y'.repeat(2000))).stderr).toContain('MESSAGE_TOO_LARGE');
  expect((await openFsStores(tmp.path).team.readInbox('demo', 'alice')).map((e) => e.text.length)).toEqual([256 * 1024]);
  await mailroomOk(tmp.path, 'team', 'send', 'alice', 'short');
});

it('counts the summary too: a short text with a long summary (stored beside it in every copy) is refused, nothing stored', async () => {
  // The team's limit is 1024 bytes now (the test above). A summary is a "5–10 word preview".
  const before = await openFsStores(tmp.path).team.readInbox('demo', 'alice');
  const long = sendMessage({ root: openFsStores(tmp.path), team: 'demo', to: 'alice', text: 'hi', summary: 's'.repeat(5000) });
  await expect(long).rejects.toMatchObject({ code: 'MESSAGE_TOO_LARGE', details: { bytes: 5002, maxMessageBytes: 1024 } });
  const run = await mailroom(tmp.path, 'team', 'send', 'alice', 'x'.repeat(600), '--summary', 'y'.repeat(600));
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/MESSAGE_TOO_LARGE: The message \(text and summary\) is 1200 bytes/);
  expect(await openFsStores(tmp.path).team.readInbox('demo', 'alice')).toEqual(before);
  await mailroomOk(tmp.path, 'team', 'send', 'alice', 'x'.repeat(500), '--summary', 'y'.repeat(500));
});
