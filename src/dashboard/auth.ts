/**
 * Who may talk to a dashboard: a request must present the server's random token (the `token`
 * query parameter of the printed URL, the `x-mailroom-token` header, or the cookie the page gets
 * on its first load), and an action must come from the page itself: a POST needs the header (a
 * cookie alone is not enough, so a form on another site cannot act) and, when the browser sends
 * an Origin, the dashboard's own. A loopback server also checks the Host header, so a DNS
 * rebinding page cannot reach it under another name.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The cookie the page's first load sets (HttpOnly, SameSite=Strict). */
export const TOKEN_COOKIE = 'mailroom_dashboard';
/** The header the page's scripts send. */
export const TOKEN_HEADER = 'x-mailroom-token';

/** A fresh token: 24 random bytes, base64url (32 characters). */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** True for 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

function same(a: string | undefined, token: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(token);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieToken(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === TOKEN_COOKIE) return v.join('=');
  }
  return undefined;
}

/** Why a request is refused: `401` (no or wrong token), `403` (a cross-site action or a foreign Host), or undefined when it may go on. */
export function refusal(req: IncomingMessage, url: URL, token: string, server: { loopback: boolean; port: number }): { status: 401 | 403; message: string } | undefined {
  if (server.loopback) {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (!isLoopback(host)) return { status: 403, message: `Host ${req.headers.host ?? '(none)'} is not this dashboard's; open the URL it printed.` };
  }
  const header = req.headers[TOKEN_HEADER];
  const fromHeader = typeof header === 'string' ? header : undefined;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    if (!same(fromHeader, token)) return { status: fromHeader === undefined && !same(cookieToken(req), token) ? 401 : 403, message: `An action needs the ${TOKEN_HEADER} header (the page sends it).` };
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host ?? ''}`) return { status: 403, message: `Cross-site request from ${origin} refused.` };
    // A browser says where a request comes from even without an Origin: only the page itself may act.
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return { status: 403, message: `Cross-site request (Sec-Fetch-Site: ${String(site)}) refused.` };
    return undefined;
  }
  if (same(url.searchParams.get('token') ?? undefined, token) || same(fromHeader, token) || same(cookieToken(req), token)) return undefined;
  return { status: 401, message: 'This dashboard needs its token: open the URL `mailroom dashboard` printed (…/?token=…).' };
}

/** The Set-Cookie header value that lets the page's later requests (assets, events) present the token. */
export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}
