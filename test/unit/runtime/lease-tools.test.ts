/**
 * The lease tools of LLM teammates (issue 26 item 3), played by scripted models in real runtimes on
 * a real files store: alice acquires `src/store/**` (LeaseAcquire); bob's LeaseAcquire of a file
 * under it comes back as a tool error the model can act on — LEASE_HELD's message, naming alice,
 * her paths, reason and expiry and what to do — and his LeaseList shows alice's lease; alice releases (LeaseRelease), and bob's next
 * LeaseAcquire of the same file succeeds.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { listLeases } from '../../../src/core/leases/path-leases.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { createScriptedModel, type ScriptedModel } from '../../../src/runtime/models/scripted.js';
import type { ModelRequest, ToolResultBlock } from '../../../src/runtime/models/types.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import { until } from '../../helpers/runtime.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { openFsStores } from '../../../src/store/open.js';

let dir: TempDir;
const stops: Array<() => Promise<unknown>> = [];
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't', ['alice', 'bob']);
});
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  await dir.cleanup();
});

function start(name: string, model: ScriptedModel): void {
  const controller = new AbortController();
  const running = runTeammate({ root: openFsStores(dir.path), team: 't', name, model, signal: controller.signal, takesTasks: false });
  stops.push(() => (controller.abort(), running));
}

/** The tool results the model got in `request`'s last turn. */
function toolResults(request: ModelRequest | undefined): ToolResultBlock[] {
  const last = request?.messages.at(-1);
  return (Array.isArray(last?.content) ? last.content : []).filter((b): b is ToolResultBlock => typeof b === 'object' && b.type === 'tool_result');
}

const send = (to: string, text: string) => sendMessage({ root: openFsStores(dir.path), team: 't', to, text });
const leases = () => listLeases({ root: openFsStores(dir.path), team: 't' });

it('LeaseAcquire, LEASE_HELD as a tool error naming the holder, LeaseList, LeaseRelease, then the second acquirer gets it', async () => {
  const alice = createScriptedModel({
    name: 'alice',
    turns: [
      { toolCalls: [{ name: 'LeaseAcquire', input: { paths: ['src/store/**'], reason: 'rewriting the lock' } }] },
      { text: 'holding src/store' },
      { toolCalls: [{ name: 'LeaseRelease', input: { all: true } }] },
      { text: 'released' },
    ],
  });
  const bob = createScriptedModel({
    name: 'bob',
    turns: [
      { toolCalls: [{ name: 'LeaseAcquire', input: { paths: ['src/store/a.ts'] } }] },
      { toolCalls: [{ name: 'LeaseList', input: {} }] },
      { text: 'alice holds it; waiting' },
      { toolCalls: [{ name: 'LeaseAcquire', input: { paths: ['src/store/a.ts'] } }] },
      { text: 'mine now' },
    ],
  });
  start('alice', alice);
  start('bob', bob);

  await send('alice', 'take src/store');
  const [held] = await until(async () => ((await leases()).length === 1 ? await leases() : undefined), 20_000, "alice's lease");
  expect(held).toMatchObject({ holder: 'alice', paths: ['src/store/**'], shared: false, reason: 'rewriting the lock' });
  expect(toolResults(alice.requests[1])[0]?.isError).toBeFalsy();

  await send('bob', 'edit src/store/a.ts');
  await until(() => bob.requests.length >= 3, 20_000, "bob's LeaseList");
  const [refused] = toolResults(bob.requests[1]);
  expect(refused?.isError, refused?.content).toBe(true);
  // The use case's LEASE_HELD message, as the runtime returns every tool error: holder, paths, reason, expiry, what to do.
  expect(refused?.content).toMatch(/^alice holds an exclusive lease pl-\S+ on src\/store\/\*\* \(rewriting the lock\), until \d{4}-\d\d-\d\dT[\d:.]+Z\. Ask the holder/);
  const [listed] = toolResults(bob.requests[2]);
  expect(listed?.isError).toBeFalsy();
  expect(listed?.content).toContain(held!.id);
  expect((await leases()).map((l) => l.holder)).toEqual(['alice']);

  await send('alice', 'done, let go');
  await until(async () => (await leases()).length === 0, 20_000, "alice's release");
  const [released] = toolResults(alice.requests[3]);
  expect(released?.isError).toBeFalsy();
  expect(released?.content).toContain(held!.id);

  await send('bob', 'try again');
  const [mine] = await until(async () => ((await leases()).length === 1 ? await leases() : undefined), 20_000, "bob's lease");
  expect(mine).toMatchObject({ holder: 'bob', paths: ['src/store/a.ts'] });
  expect(toolResults(bob.requests[4])[0]?.isError).toBeFalsy();
});
