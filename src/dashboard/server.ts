/**
 * `mailroom dashboard`'s HTTP server (node:http, no framework): the page and its assets, the
 * team's state as JSON, a server-sent event stream that pushes every change as a patch (no polling), the
 * journal timeline, transcripts, and one POST route for actions (src/dashboard/actions.ts). Every
 * request presents the token (src/dashboard/auth.ts).
 *
 * Routes (all but `/` and `/assets/*` answer JSON; `team` defaults to the dashboard's team):
 *   GET  /?token=…&team=           the page (sets the token cookie), the team's state inside it
 *   GET  /assets/<file>            the page's scripts and styles, built with the package
 *   GET  /api/teams                team names
 *   GET  /api/state?team=          {@link WireState}
 *   GET  /api/events?team=&since=  text/event-stream: `event: state` with the whole WireState (or
 *                                  `event: current` when `since` is its version already: the page
 *                                  came with it), then `event: patch` with a WirePatch per change
 *                                  (src/dashboard/patch.ts)
 *   GET  /api/messages?team=&before=<key>&limit=   WireMessage[] older than the state's window
 *   GET  /api/journal?team=&actor=&kind=&member=&task=&limit=   WireEvent[]
 *   GET  /api/transcript?team=&member=                          WireTurn[]
 *   POST /api/action?team=         a WireAction → WireActionResult
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MailroomError } from '../errors.js';
import type { Stores } from '../store/selection.js';
import { listTeams } from '../core/teams/team-lifecycle.js';
import { refusal, tokenCookie, isLoopback, newToken } from './auth.js';
import { MAX_ACTION_BYTES, runAction } from './actions.js';
import { readAsset, pageHtml } from './assets.js';
import { LiveTeam } from './live.js';
import { readTimeline, readTranscript } from './timeline.js';
import type { WireState } from './wire.js';

/** Options of {@link startDashboard}. */
export interface DashboardOptions {
  stores: Stores;
  /** The team shown first. */
  team: string;
  /** Interface to bind (default `127.0.0.1`). */
  host?: string | undefined;
  /** Port (default 0: a free one). */
  port?: number | undefined;
  /** Who the page acts as (default: the lead). */
  as?: string | undefined;
  /** How the store is named on the page (password hidden). */
  storeLabel: string;
  /** A fixed token (tests); default a fresh random one. */
  token?: string | undefined;
}

/** A running dashboard. */
export interface Dashboard {
  /** The URL to open, token included. */
  url: string;
  port: number;
  token: string;
  /** Stops serving, ends every event stream, stops following. */
  close(): Promise<void>;
}

/**
 * Starts serving. @throws TEAM_NOT_FOUND (the first team), INVALID_ARGUMENT (port in use, with the
 * fix), STORE_UNAVAILABLE
 */
export async function startDashboard(o: DashboardOptions): Promise<Dashboard> {
  const token = o.token ?? newToken();
  const host = o.host ?? '127.0.0.1';
  const teams = new Map<string, Promise<LiveTeam>>();
  const streams = new Set<ServerResponse>();
  const liveTeam = (team: string): Promise<LiveTeam> => {
    let t = teams.get(team);
    if (!t) {
      t = LiveTeam.open({ stores: o.stores, team, as: o.as, storeLabel: o.storeLabel });
      t.catch(() => teams.delete(team));
      teams.set(team, t);
    }
    return t;
  };
  await liveTeam(o.team);
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => sendError(res, err));
  });
  const info = { loopback: isLoopback(host), port: 0 };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://dashboard');
    const refused = refusal(req, url, token, info);
    if (refused) return sendJson(res, refused.status, { ok: false, code: refused.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN', message: refused.message });
    const team = url.searchParams.get('team') || o.team;
    if (req.method === 'GET' && url.pathname === '/') {
      // The team's current state goes in the page itself, so the first paint waits for no event stream.
      const live = await liveTeam(team).catch(() => undefined);
      const html = await pageHtml();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': tokenCookie(token), 'cache-control': 'no-store', ...SECURITY_HEADERS });
      return void res.end(live ? withState(html, live.current()) : html);
    }
    if (req.method === 'GET' && url.pathname.startsWith('/assets/')) {
      const asset = await readAsset(url.pathname.slice('/assets/'.length));
      if (!asset) return sendJson(res, 404, { ok: false, code: 'NOT_FOUND', message: 'No such asset.' });
      res.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-cache', ...SECURITY_HEADERS });
      return void res.end(asset.body);
    }
    if (req.method === 'GET' && url.pathname === '/api/teams') return sendJson(res, 200, await listTeams({ root: o.stores }));
    if (req.method === 'GET' && url.pathname === '/api/state') return sendJson(res, 200, (await liveTeam(team)).current());
    if (req.method === 'GET' && url.pathname === '/api/events') return stream(res, await liveTeam(team), Number(url.searchParams.get('since')));
    if (req.method === 'GET' && url.pathname === '/api/messages') {
      const limit = Math.max(1, Math.min(Number(url.searchParams.get('limit')) || 200, 1000));
      return sendJson(res, 200, (await liveTeam(team)).older(url.searchParams.get('before') ?? '', limit));
    }
    if (req.method === 'GET' && url.pathname === '/api/journal') {
      await liveTeam(team); // the team must exist (TEAM_NOT_FOUND, 404), as for /api/state
      const p = url.searchParams;
      const limit = p.get('limit');
      return sendJson(res, 200, await readTimeline(o.stores, team, { actor: p.get('actor') || undefined, kind: p.get('kind') || undefined, member: p.get('member') || undefined, task: p.get('task') || undefined, ...(limit ? { limit: Number(limit) } : {}) }));
    }
    if (req.method === 'GET' && url.pathname === '/api/transcript') {
      await liveTeam(team); // the team must exist (TEAM_NOT_FOUND, 404)
      return sendJson(res, 200, await readTranscript(o.stores, team, url.searchParams.get('member') ?? ''));
    }
    if (req.method === 'POST' && url.pathname === '/api/action') {
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return sendJson(res, 415, { ok: false, code: 'INVALID_ARGUMENT', message: 'Send the action as application/json.' });
      const body = await readBody(req);
      if (body === undefined) return sendJson(res, 413, { ok: false, code: 'MESSAGE_TOO_LARGE', message: `An action body is at most ${MAX_ACTION_BYTES} bytes.` });
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return sendJson(res, 400, { ok: false, code: 'INVALID_ARGUMENT', message: 'The action body is not JSON.' });
      }
      const result = await runAction({ root: o.stores, team, as: o.as }, parsed);
      return sendJson(res, result.ok ? 200 : 422, result);
    }
    sendJson(res, 404, { ok: false, code: 'NOT_FOUND', message: `No route ${req.method ?? ''} ${url.pathname}.` });
  }

  /** The event stream; a page that holds version `since` already (it came with the page) gets `event: current` instead of the whole state. */
  function stream(res: ServerResponse, live: LiveTeam, since: number): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write(since === live.current().version ? `event: current\ndata: ${since}\n\n` : live.currentEvent());
    const off = live.subscribe((p) => res.write(p.text));
    const beat = setInterval(() => res.write(': beat\n\n'), 15_000);
    streams.add(res);
    res.on('close', () => {
      off();
      clearInterval(beat);
      streams.delete(res);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new MailroomError('INVALID_ARGUMENT', `Port ${o.port ?? 0} on ${host} is in use: pick another with --port, or leave it out for a free one.`, { cause: err }) : err));
    server.listen(o.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  info.port = port;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost}:${port}/?token=${token}${o.team ? `&team=${encodeURIComponent(o.team)}` : ''}`,
    port,
    token,
    close: async () => {
      for (const r of streams) r.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      for (const t of teams.values()) await (await t.catch(() => undefined))?.close();
    },
  };
}

/**
 * The page with `state` in a JSON data block before `</head>` (`<script type="application/json">`,
 * which runs nothing, so the CSP's `script-src 'self'` stands). Every `<` in the JSON is written
 * `\u003c`, so no text in the state can close the block.
 */
export function withState(html: Buffer, state: WireState): Buffer {
  const block = `<script type="application/json" id="mailroom-state">${JSON.stringify(state).replace(/</g, '\\u003c')}</script>\n`;
  const text = html.toString('utf8');
  const at = text.indexOf('</head>');
  return Buffer.from(at < 0 ? text : `${text.slice(0, at)}${block}${text.slice(at)}`);
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
} as const;

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(JSON.stringify(value));
}

function sendError(res: ServerResponse, err: unknown): void {
  if (err instanceof MailroomError) {
    const status = err.code === 'TEAM_NOT_FOUND' || err.code === 'MEMBER_NOT_FOUND' ? 404 : err.code === 'STORE_UNAVAILABLE' ? 503 : 422;
    return sendJson(res, status, { ok: false, code: err.code, message: err.message });
  }
  sendJson(res, 500, { ok: false, code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) });
}

/** The body as text, or undefined past {@link MAX_ACTION_BYTES}. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_ACTION_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
