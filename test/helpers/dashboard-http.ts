/** Raw HTTP against an in-process dashboard (tests set Host and Origin as another site would), and its event stream read until a state matches. */
import { request } from 'node:http';
import type { Dashboard } from '../../src/dashboard/server.js';
import type { WirePatch, WireState } from '../../src/dashboard/wire.js';
import { applyPatch } from '../../src/dashboard/patch.js';

/** A reply: status and body text. */
export interface Reply {
  status: number;
  body: string;
}

/** One raw HTTP request (so tests can set Host and Origin as a browser on another site would). */
export function http(d: Dashboard, path: string, o: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: d.port, path, method: o.method ?? 'GET', headers: o.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

export const post = (d: Dashboard, action: unknown, headers: Record<string, string> = {}) =>
  http(d, '/api/action', { method: 'POST', headers: { 'content-type': 'application/json', 'x-mailroom-token': d.token, ...headers }, body: JSON.stringify(action) });

/**
 * Reads the event stream as the page does — the opening `state`, then each `patch` applied to it —
 * until `until` holds for the state; resolves with it.
 */
export function nextState(d: Dashboard, until: (s: WireState) => boolean): Promise<WireState> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: d.port, path: `/api/events?token=${d.token}` }, (res) => {
      let buf = '';
      let state: WireState | undefined;
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buf += c;
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          const patch = block.startsWith('event: patch');
          if (patch && !state) return reject(new Error('The event stream sent a patch before its opening state.'));
          const s = patch ? applyPatch(state!, JSON.parse(data.slice(6)) as WirePatch) : (JSON.parse(data.slice(6)) as WireState);
          state = s;
          if (until(s)) {
            req.destroy();
            resolve(s);
          }
        }
      });
    });
    req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
    req.end();
  });
}

