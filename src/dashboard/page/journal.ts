/** The journal as a filterable timeline (actor, kind, member, task), re-read when the team changes; and a member's transcript. */
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.js';
import { getJson } from './api.js';
import type { WireEvent, WireTurn } from '../wire.js';

const KINDS = ['', 'message', 'delivery', 'task', 'member', 'team', 'refused', 'settings', 'lease'];

/** The timeline; `version` changes with every new team state, so the list follows the team. */
export function Journal({ team, version }: { team: string | undefined; version: number }) {
  const [filter, setFilter] = useState({ actor: '', kind: '', member: '', task: '' });
  const [events, setEvents] = useState<WireEvent[]>([]);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    const t = setTimeout(() => {
      getJson<WireEvent[]>('/api/journal', team, { ...filter, limit: '500' }).then(
        (e) => { setEvents(e); setError(undefined); },
        (err: unknown) => setError(String(err)),
      );
    }, 100);
    return () => clearTimeout(t);
  }, [team, version, filter.actor, filter.kind, filter.member, filter.task]);
  const field = (key: 'actor' | 'member' | 'task', label: string) =>
    html`<label>${label} <input name=${key} size="10" value=${filter[key]} onInput=${(e: Event) => setFilter({ ...filter, [key]: (e.target as HTMLInputElement).value })} /></label>`;
  return html`<div>
    <form class="inline" aria-label="Filter the journal" onSubmit=${(e: Event) => e.preventDefault()}>
      ${field('actor', 'Actor')}
      <label>Kind <select name="kind" value=${filter.kind} onChange=${(e: Event) => setFilter({ ...filter, kind: (e.target as HTMLSelectElement).value })}>${KINDS.map((k) => html`<option value=${k}>${k || 'any'}</option>`)}</select></label>
      ${field('member', 'Member')}
      ${field('task', 'Task')}
    </form>
    ${error ? html`<p class="error">${error}</p>` : ''}
    <ol class="timeline" aria-label="Journal">${events.map((e) => html`<li key=${e.seq} class=${`ev ev-${e.kind}`}><span class="tag">${e.kind}</span> ${e.line}</li>`)}</ol>
  </div>`;
}

/** A member's transcript, as this machine keeps it. */
export function Transcript({ team, member, onClose }: { team: string | undefined; member: string; onClose(): void }) {
  const [turns, setTurns] = useState<WireTurn[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    getJson<WireTurn[]>('/api/transcript', team, { member }).then(setTurns, (err: unknown) => setError(String(err)));
  }, [team, member]);
  return html`<section class="panel" aria-label=${`Transcript of ${member}`}>
    <header><h2>Transcript of ${member}</h2><button onClick=${onClose}>Close</button></header>
    ${error ? html`<p class="error">${error}</p>` : turns === undefined ? html`<p>Loading…</p>` : turns.length === 0 ? html`<p class="empty">No transcript on this machine (a worker keeps none; a member running elsewhere keeps it there).</p>` :
      html`<ol class="turns">${turns.map((t, i) => html`<li key=${i} class=${`turn ${t.role}`}><b>${t.role}</b><pre>${t.text}</pre></li>`)}</ol>`}
  </section>`;
}
