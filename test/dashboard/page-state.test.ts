/**
 * The state the page comes with (src/dashboard/server.ts `withState`): a JSON data block before
 * `</head>` that no text in the state can close, and that parses back to the state.
 */
import { describe, expect, it } from 'vitest';
import { withState } from '../../src/dashboard/server.js';
import type { WireState } from '../../src/dashboard/wire.js';

const page = Buffer.from('<!doctype html><html><head><title>t</title>\n</head><body></body></html>');

describe('withState', () => {
  it('puts the state in one data block that hostile text cannot close', () => {
    const hostile = '</script><script>alert(1)</script><!--';
    const state = { version: 3, team: 'demo', description: hostile, messages: [{ text: hostile }] } as unknown as WireState;
    const html = withState(page, state).toString('utf8');
    expect(html.match(/<\/script/gi)).toHaveLength(1);
    expect(html.match(/<script/gi)).toHaveLength(1);
    const block = /<script type="application\/json" id="mailroom-state">(.*)<\/script>\n<\/head>/s.exec(html);
    expect(block).not.toBeNull();
    expect(JSON.parse(block![1]!)).toEqual(state);
  });
});
