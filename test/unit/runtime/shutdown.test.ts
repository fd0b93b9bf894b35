/**
 * The shutdown handshake with in-process teammates: approve (member leaves, its open tasks go back
 * to pending with no owner, the teammate stops), reject (with a reason; it keeps running), and an
 * unanswered request forced after the timeout.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readInbox } from '../../../src/core/messages/inbox-read.js';
import { addTask, getTask } from '../../../src/core/tasks/board.js';
import { claimTask } from '../../../src/core/tasks/claim.js';
import { openFsStores } from '../../../src/store/open.js';
import { parseMessageText } from '../../../src/protocol/structured.js';
import { InProcessHost } from '../../../src/runtime/host.js';
import { createWorkerModel } from '../../../src/runtime/models/worker.js';
import { shutdownRequestIn, latestUserTurn } from '../../../src/runtime/models/request-view.js';
import { functionModel } from '../../helpers/runtime.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
let host: InProcessHost;
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't', ['alice']);
  host = await InProcessHost.open({ root: openFsStores(dir.path), team: 't', pollMs: 200 });
});
afterEach(async () => {
  await host.close();
  await dir.cleanup();
});

const members = async () => (await openFsStores(dir.path).team.readConfig('t')).members.map((m) => m.name);
const leadMessages = async () => (await readInbox({ root: openFsStores(dir.path), team: 't' })).messages.map((m) => parseMessageText(m.entry.text));

describe('shutdown handshake', () => {
  it('approve: shutdown_approved to the lead, member removed, open task unassigned, teammate stopped', async () => {
    await addTask({ root: openFsStores(dir.path), team: 't', subject: 'Half done' });
    await claimTask({ root: openFsStores(dir.path), team: 't', id: '1', as: 'alice' });
    const alice = host.add('alice', createWorkerModel(), { takesTasks: false });
    const result = await host.stop('alice', { timeoutMs: 10_000 });
    expect(result).toEqual({ name: 'alice', outcome: 'approved' });
    expect((await alice.done).reason).toBe('shutdown');
    expect(alice.state).toBe('stopped');
    expect(await members()).toEqual(['team-lead']);
    const task = (await getTask({ root: openFsStores(dir.path), team: 't', id: '1' })).task;
    expect(task.status).toBe('pending');
    expect(task.owner).toBeUndefined();
    const approved = (await leadMessages()).find((p) => p.kind === 'structured' && p.message.type === 'shutdown_approved');
    // alice runs in mailroom's host: no pane and no Claude Code backend to name, so the lead kills nothing.
    expect(approved).toMatchObject({ message: { from: 'alice' } });
    expect(approved?.kind === 'structured' && Object.keys(approved.message)).toEqual(['type', 'requestId', 'from', 'timestamp']);
  });

  it('an answer with an invented request id is refused to the model, naming the real one; the corrected answer lands', async () => {
    const errors: string[] = [];
    const model = functionModel((request) => {
      const last = request.messages.at(-1)?.content ?? [];
      const refused = last.find((b) => b.type === 'tool_result' && b.isError === true);
      if (refused?.type === 'tool_result') {
        errors.push(refused.content);
        const requestId = /requests received: "([^"]+)"/.exec(refused.content)?.[1] ?? 'none';
        const message = { type: 'shutdown_response', request_id: requestId, approve: true };
        return { content: [{ type: 'tool_use', id: 'r2', name: 'SendMessage', input: { to: 'team-lead', message } }], stopReason: 'tool_use' };
      }
      if (!shutdownRequestIn(latestUserTurn(request))) return { content: [], stopReason: 'end_turn' };
      const message = { type: 'shutdown_response', request_id: 'shutdown-123@alice', approve: true };
      return { content: [{ type: 'tool_use', id: 'r1', name: 'SendMessage', input: { to: 'team-lead', message } }], stopReason: 'tool_use' };
    });
    const alice = host.add('alice', model);
    const result = await host.stop('alice', { timeoutMs: 10_000 });
    expect(result).toMatchObject({ name: 'alice', outcome: 'approved' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/No shutdown_request with requestId "shutdown-123@alice"/);
    const answers = (await leadMessages()).filter((p) => p.kind === 'structured' && p.message.type === 'shutdown_approved');
    expect(answers).toHaveLength(1);
    expect((await alice.done).reason).toBe('shutdown');
  });

  it('reject: shutdown_rejected with the reason; the teammate keeps running until forced', async () => {
    const model = functionModel((request) => {
      const req = shutdownRequestIn(latestUserTurn(request));
      if (!req || request.messages.length > 1) return { content: [], stopReason: 'end_turn' };
      const message = { type: 'shutdown_response', request_id: req.requestId, approve: false, reason: 'still writing #1' };
      return { content: [{ type: 'tool_use', id: 'r1', name: 'SendMessage', input: { to: 'team-lead', message } }], stopReason: 'tool_use' };
    });
    const alice = host.add('alice', model);
    const result = await host.stop('alice', { timeoutMs: 10_000 });
    expect(result).toEqual({ name: 'alice', outcome: 'rejected', reason: 'still writing #1' });
    expect(await members()).toContain('alice');
    expect(alice.state).not.toBe('stopped');
    expect(await host.stop('alice', { force: true })).toEqual({ name: 'alice', outcome: 'forced' });
    expect((await alice.done).reason).toBe('aborted');
    expect(await members()).toEqual(['team-lead']);
  });

  it('an unanswered request is forced after the timeout, aborting the model call', async () => {
    let aborted = false;
    const model = functionModel(
      (request) =>
        new Promise((_resolve, reject) =>
          request.signal.addEventListener('abort', () => ((aborted = true), reject(new DOMException('aborted', 'AbortError'))), { once: true }),
        ),
    );
    const alice = host.add('alice', model);
    const result = await host.stop('alice', { timeoutMs: 300 });
    expect(result).toEqual({ name: 'alice', outcome: 'timeout' });
    expect(aborted).toBe(true);
    expect((await alice.done).reason).toBe('aborted');
    expect(await members()).toEqual(['team-lead']);
  });
});
