/**
 * An idle `mailroom agent` process (the process backend) is woken by a send itself, not by its
 * safety-net poll (issue 24 item 3): with `--poll-ms 1h` it still answers each message, on the
 * filesystem store. The answer comes from a scripted model (one SendMessage to the lead per message).
 *
 * Each message is sent only once bob is asleep in its waiter (its `wait-asleep` trace mark after
 * the turn's last model call), so only the watch can wake it. The scripted model answers by call
 * index (call 2i answers question i, call 2i+1 ends the turn): a question sent as soon as the
 * previous answer appeared could land before that turn's second take and be delivered to the
 * end-the-turn call, as the runtime rightly does (mail goes out before every model call), leaving
 * "answer i+1" never written — the two timeouts seen under load (docs/decisions.md "The
 * wakes-on-send test waits for the teammate to sleep").
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTeam, readInbox, sendMessage, spawnMember } from '../../src/index.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { asleepAfter, marks } from '../helpers/trace-marks.js';
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

/** Runs `step`; on failure adds the agent's log to the error (which step stalled, and what bob did). */
async function logged<T>(child: LineChild, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (err) {
    const marked = marks(child).join(' ');
    throw new Error(`${err instanceof Error ? err.message : String(err)}\nbob's log:\n${child.lines().join('\n')}\nbob's marks: ${marked}`);
  }
}

describe('mailroom agent, idle', () => {
  it('answers each send with no safety-net poll (--poll-ms 1h): the watch wakes it', async () => {
    await createTeam({ root: openFsStores(dir.path), team: 't' });
    await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'bob' });
    const script = join(dir.path, 'bob.json');
    const turns = [0, 1, 2].flatMap((i) => [{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: `answer ${i}` } }] }, { text: '' }]);
    await writeFile(script, JSON.stringify(turns));
    const env = { ...process.env, MAILROOM_TRACE_MARKS: '1' };
    agent = startCli(['agent', 'bob', '--root', dir.path, '--team', 't', '--model', `scripted:${script}`, '--poll-ms', '1h'], env);
    await agent.waitForLine((l) => l.includes(' started ('), 0, 60_000);
    const bob = agent;
    for (let i = 0; i < 3; i++) {
      // Asleep after question i-1's turn (two model calls each): nothing but the watch wakes it now.
      await logged(bob, until(() => asleepAfter(bob, 2 * i), 30_000, `bob asleep after ${2 * i} model calls`));
      await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'bob', text: `question ${i}` });
      const seen = until(async () => (await readInbox({ root: openFsStores(dir.path), team: 't', agent: 'team-lead' })).messages.find((m) => m.entry.text === `answer ${i}`), 30_000, `answer ${i}`);
      const answer = await logged(bob, seen);
      expect(answer.entry.from).toBe('bob');
    }
    // Longer than the default 30 s: the waits above (start 60 s, each step 30 s) name the step
    // that did not come, where the test's own timeout named none (seen once in a loaded full run).
  }, 240_000);
});
