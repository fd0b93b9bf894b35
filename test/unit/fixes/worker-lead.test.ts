/**
 * Issue 15, "on the way": the worker model read the lead's name from AsyncLocalStorage
 * (`currentTeammate()`), though runtime/context.ts says domain data is passed explicitly. Called
 * outside a teammate's context — a test, another host, a library user — it reported to
 * `team-lead` whatever the team's lead was. The request now names its teammate and lead.
 */
import { describe, expect, it } from 'vitest';
import { createWorkerModel } from '../../../src/runtime/models/worker.js';
import type { ModelRequest } from '../../../src/runtime/models/types.js';

function afterClaim(lead: string): ModelRequest {
  return {
    system: '',
    tools: [],
    signal: new AbortController().signal,
    teammate: { team: 't', name: 'alice', lead, cwd: '/' },
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'work' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'TaskClaim', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c1', content: JSON.stringify({ claimed: { id: '1', subject: 'Do it' } }) }] },
    ],
  };
}

describe('the worker model', () => {
  it("reports to the lead named in the request, outside any teammate's context", async () => {
    const reply = await createWorkerModel().call(afterClaim('boss'));
    const send = reply.content.find((b) => b.type === 'tool_use' && b.name === 'SendMessage');
    expect(send).toMatchObject({ input: { to: 'boss' } });
  });
});
