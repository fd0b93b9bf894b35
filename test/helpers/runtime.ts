/**
 * Helpers for runtime tests: waiting for a condition on disk, and a model built from a function
 * (a real Model implementation whose replies a test decides).
 */
import type { Stores } from '../../src/store/selection.js';
import type { Model, ModelRequest, ModelResponse } from '../../src/runtime/models/types.js';

/** Polls `check` every 20 ms until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A model whose reply is computed by `reply`; it records every request. */
export function functionModel(reply: (request: ModelRequest, index: number) => ModelResponse | Promise<ModelResponse>): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: 'test:function',
    requests,
    call: async (request) => reply(request, requests.push(request) - 1),
  };
}

/** All text of a request's last user turn. */
export function lastUserText(request: ModelRequest): string {
  const last = request.messages[request.messages.length - 1];
  return (last?.content ?? []).flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}

/**
 * Takes `member`'s reader claim for a holder on another host and returns its token, for a test
 * that drives a Mailbox directly: the runtime's takes and acknowledgements name it as their fence.
 */
export async function heldReaderToken(stores: Stores, team: string, member: string): Promise<string> {
  return (await stores.team.claimReader(team, member, { kind: 'agent', host: 'test-host', pid: 1, startedAt: 1 })).value.token;
}

/**
 * Takes `member`'s reader claim over for a runtime on another host, as soon as the current holder's
 * claim has died (a paused holder's ttl passed); returns the new claim's token. Release it with
 * `stores.team.releaseReader(team, member, token)`.
 */
export async function takeOverFromAnotherHost(stores: Stores, team: string, member: string, timeoutMs = 30_000): Promise<string> {
  const holder = { kind: 'agent' as const, host: 'another-host', pid: 4242, startedAt: 1 };
  const claim = await until(async () => (await stores.team.claimReader(team, member, holder).catch(() => undefined))?.value, timeoutMs, `the takeover of ${member} after its holder's claim died`);
  return claim.token;
}
