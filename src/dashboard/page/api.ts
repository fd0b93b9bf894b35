/**
 * The page's link to its server: the token (taken from the URL once, then kept for the tab and
 * dropped from the address bar), JSON GETs, actions as POSTs with the token header, and the
 * server-sent event stream: one whole {@link WireState}, then {@link WirePatch}es applied to it.
 */
import { applyPatch } from '../patch.js';
import type { WireAction, WireActionResult, WireMessage, WirePatch, WireState } from '../wire.js';

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

/**
 * Follows the team's state; returns a function that stops. `onLink(false)` while reconnecting. The
 * stream opens with the whole state (or, given the `initial` state the page came with and still
 * current, says so: `event: current`) and then carries patches; a patch that is not for the state
 * the page holds (one was lost) closes the stream and opens a new one, which starts with the whole
 * state again — as does the browser's own reconnect after the server went away.
 */
export function follow(team: string | undefined, onState: (s: WireState) => void, onLink: (up: boolean) => void, initial?: WireState): () => void {
  let state: WireState | undefined = initial;
  let source: EventSource;
  if (initial) onState(initial);
  const open = () => {
    source = new EventSource(withTeam('/api/events', team, { token, ...(state ? { since: String(state.version) } : {}) }));
    source.addEventListener('current', () => onLink(true));
    source.addEventListener('state', (e) => {
      onLink(true);
      state = JSON.parse((e as MessageEvent<string>).data) as WireState;
      onState(state);
    });
    source.addEventListener('patch', (e) => {
      const patch = JSON.parse((e as MessageEvent<string>).data) as WirePatch;
      if (!state || patch.base !== state.version) {
        source.close();
        state = undefined;
        onLink(false);
        return open();
      }
      state = applyPatch(state, patch);
      onState(state);
    });
    source.onerror = () => onLink(false);
  };
  open();
  return () => source.close();
}

/**
 * The state the page came with (the server puts it in a JSON data block), once; undefined after
 * the first call or when there is none.
 */
export function takeInitialState(): WireState | undefined {
  const block = document.getElementById('mailroom-state');
  if (!block?.textContent) return undefined;
  block.remove();
  try {
    return JSON.parse(block.textContent) as WireState;
  } catch {
    return undefined;
  }
}

/** Messages older than the one keyed `before` (oldest first), for the flow's "older" button. */
export function olderMessages(team: string | undefined, before: string, limit = 200): Promise<WireMessage[]> {
  return getJson<WireMessage[]>('/api/messages', team, { before, limit: String(limit) });
}
