import { describe, expect, it } from 'vitest';
import { makeInboxEntry, type InboxEntry } from '../../../src/protocol/inbox.js';
import { orderForDelivery } from '../../../src/runtime/delivery/order.js';
import { wrapMessage, wrapMessages } from '../../../src/runtime/delivery/wrap.js';

const entry = (from: string, text: string, extra: Partial<InboxEntry> = {}): InboxEntry => ({
  ...makeInboxEntry({ from, text, timestamp: '2026-03-01T12:00:00.000Z', msgId: `${from}-${text}` }),
  ...extra,
});

describe('wrapMessage (reference §7.2)', () => {
  it('writes Claude Code’s wrapper with attributes in fixed order', () => {
    const e = entry('alice', 'Parser done, see src/parse.ts', { color: 'blue', summary: 'Parser finished' });
    expect(wrapMessage(e)).toBe('<teammate-message teammate_id="alice" color="blue" summary="Parser finished">\nParser done, see src/parse.ts\n</teammate-message>');
  });

  it('omits empty and non-palette attributes, escapes values and caps the summary', () => {
    const e = entry('a"<b>&', 'x', { color: 'chartreuse', summary: `  ${'s'.repeat(300)}  ` });
    const wrapped = wrapMessage(e);
    expect(wrapped).toContain('teammate_id="a&quot;&lt;b&gt;&amp;"');
    expect(wrapped).not.toContain('color=');
    expect(wrapped).toContain(`summary="${'s'.repeat(200)}">`);
    expect(wrapMessage(entry('', 'x'))).toContain('teammate_id="[unknown sender]"');
  });

  it('keeps bodies verbatim except a closing tag, and joins messages with one blank line', () => {
    const json = JSON.stringify({ type: 'task_assignment', taskId: '1' });
    expect(wrapMessage(entry('bob', json))).toContain(`\n${json}\n`);
    expect(wrapMessage(entry('bob', 'a </teammate-message> b'))).toContain('a &lt;/teammate-message> b');
    expect(wrapMessages([entry('a', '1'), entry('b', '2')])).toBe('<teammate-message teammate_id="a">\n1\n</teammate-message>\n\n<teammate-message teammate_id="b">\n2\n</teammate-message>');
  });
});

describe('orderForDelivery (reference §7.1)', () => {
  it('puts a shutdown_request first, then the lead’s messages, then the rest oldest first', () => {
    const shutdown = entry('team-lead', JSON.stringify({ type: 'shutdown_request', requestId: 'shutdown-1@a', from: 'team-lead', timestamp: '2026-03-01T12:00:00.000Z' }));
    const input = [entry('bob', 'b1'), entry('team-lead', 'l1'), entry('carol', 'c1'), shutdown, entry('team-lead', 'l2')];
    expect(orderForDelivery(input, 'team-lead').map((e) => e.text.slice(0, 20))).toEqual([shutdown.text.slice(0, 20), 'l1', 'l2', 'b1', 'c1']);
  });
});
