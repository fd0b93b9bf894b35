/**
 * The page's link to its server: the token (taken from the URL once, then kept for the tab and
 * dropped from the address bar), JSON GETs, actions as POSTs with the token header, and the
 * server-sent event stream of {@link WireState}s.
 */
import type { WireAction, WireActionResult, WireState } from '../wire.js';

const TOKEN_KEY = 'mailroom-dashboard-token';

function takeToken(): string {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    history.replaceState(null, '', url.pathname + (url.search ? url.search : '') + url.hash);
  }
  return fromUrl ?? sessionStorage.getItem(TOKEN_KEY) ?? '';
}

/** The token every request presents. */
export const token = takeToken();

/** The team in the address bar (`?team=`), or undefined for the dashboard's own. */
export function teamInUrl(): string | undefined {
  return new URL(location.href).searchParams.get('team') ?? undefined;
}

function withTeam(path: string, team: string | undefined, params: Record<string, string> = {}): string {
  const q = new URLSearchParams({ ...params, ...(team ? { team } : {}) });
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** GET of a JSON route. @throws Error with the server's message */
export async function getJson<T>(path: string, team: string | undefined, params: Record<string, string> = {}): Promise<T> {
  const res = await fetch(withTeam(path, team, params), { headers: { 'x-mailroom-token': token } });
  const body = (await res.json()) as T & { ok?: boolean; message?: string };
  if (!res.ok) throw new Error(body.message ?? `HTTP ${res.status}`);
  return body;
}

/** Runs an action; a refusal is a result, not an error. */
export async function act(team: string | undefined, action: WireAction): Promise<WireActionResult> {
  try {
    const res = await fetch(withTeam('/api/action', team), { method: 'POST', headers: { 'content-type': 'application/json', 'x-mailroom-token': token }, body: JSON.stringify(action) });
    return (await res.json()) as WireActionResult;
  } catch (err) {
    return { ok: false, code: 'OFFLINE', message: `The dashboard server did not answer: ${String(err)}` };
  }
}

/** Follows the team's state; returns a function that stops. `onLink(false)` while reconnecting. */
export function follow(team: string | undefined, onState: (s: WireState) => void, onLink: (up: boolean) => void): () => void {
  const source = new EventSource(withTeam('/api/events', team, { token }));
  source.addEventListener('state', (e) => {
    onLink(true);
    onState(JSON.parse((e as MessageEvent<string>).data) as WireState);
  });
  source.onerror = () => onLink(false);
  return () => source.close();
}
