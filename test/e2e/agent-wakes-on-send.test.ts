/**
 * An idle `mailroom agent` process (the process backend) is woken by a send itself, not by its
 * safety-net poll (issue 24 item 3): with `--poll-ms 1h` it still answers each message, on the
 * filesystem store. The answer comes from a scripted model (one SendMessage to the lead per message).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTeam, readInbox, sendMessage, spawnMember } from '../../src/index.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { until } from '../helpers/runtime.js';
import { openFsStores } from '../../src/store/open.js';

let dir: TempDir;
let agent: LineChild | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await agent?.stop();
  await dir.cleanup();
});

describe('mailroom agent, idle', () => {
  it('answers each send with no safety-net poll (--poll-ms 1h): the watch wakes it', async () => {
    await createTeam({ root: openFsStores(dir.path), team: 't' });
    await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'bob' });
    const script = join(dir.path, 'bob.json');
    const turns = [0, 1, 2].flatMap((i) => [{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: `answer ${i}` } }] }, { text: '' }]);
    await writeFile(script, JSON.stringify(turns));
    agent = startCli(['agent', 'bob', '--root', dir.path, '--team', 't', '--model', `scripted:${script}`, '--poll-ms', '1h'], { ...process.env });
    await agent.waitForLine((l) => l.includes(' started ('), 0, 60_000);
    for (let i = 0; i < 3; i++) {
      await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'bob', text: `question ${i}` });
      const answer = await until(async () => (await readInbox({ root: openFsStores(dir.path), team: 't', agent: 'team-lead' })).messages.find((m) => m.entry.text === `answer ${i}`), 30_000, `answer ${i}`);
      expect(answer.entry.from).toBe('bob');
    }
    // Longer than the default 30 s: the waits above (start 60 s, each answer 30 s) name the step
    // that did not come, where the test's own timeout named none (seen once in a loaded full run).
  }, 180_000);
});
