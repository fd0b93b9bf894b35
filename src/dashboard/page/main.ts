/**
 * The dashboard page: follows one team's state over server-sent events and draws the roster, the
 * task board (table and graph, each task's claim history), the message flow, requests, dead
 * letters, the journal and the path leases. Every
 * action goes through POST /api/action; its result (or the refusal and the rule behind it) shows in
 * the status line. Keys: 1–8 or ←/→ on the tabs switch views; `/` jumps to the message box.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.js';
import { act, follow, getJson, olderMessages, takeInitialState, teamInUrl } from './api.js';
import { plural } from './format.js';
import { Roster } from './roster.js';
import { Tasks } from './tasks.js';
import { TaskGraph } from './graph.js';
import { DeadLetters, Messages, Requests } from './flow.js';
import { Journal, Transcript } from './journal.js';
import { Leases } from './leases.js';
import type { WireAction, WireActionResult, WireState } from '../wire.js';

const TABS = [
  ['roster', 'Roster'],
  ['tasks', 'Tasks'],
  ['graph', 'Graph'],
  ['messages', 'Messages'],
  ['requests', 'Requests'],
  ['dead', 'Dead letters'],
  ['journal', 'Journal'],
  ['leases', 'Leases'],
] as const;
type Tab = (typeof TABS)[number][0];

/** The state the page came with, used by the first follow only. */
let initial = takeInitialState();

function App() {
  const [team, setTeam] = useState<string | undefined>(teamInUrl());
  const [state, setState] = useState<WireState | undefined>(initial);
  const [version, setVersion] = useState(0);
  const [linked, setLinked] = useState(false);
  const [teams, setTeams] = useState<string[]>([]);
  const [tab, setTab] = useState<Tab>('roster');
  const [result, setResult] = useState<WireActionResult | undefined>(undefined);
  const [to, setTo] = useState('');
  const [transcript, setTranscript] = useState<string | undefined>(undefined);

  useEffect(() => {
    const first = initial;
    initial = undefined;
    return follow(team, (s) => { setState(s); setVersion((v) => v + 1); }, setLinked, first);
  }, [team]);
  useEffect(() => { getJson<string[]>('/api/teams', undefined).then(setTeams, () => undefined); }, [version === 1]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement;
      if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
      const n = Number(e.key);
      if (n >= 1 && n <= TABS.length) { setTab(TABS[n - 1]![0]); e.preventDefault(); }
      if (e.key === '/') { setTab('messages'); setTimeout(() => document.querySelector<HTMLInputElement>('input[name=text]')?.focus(), 0); e.preventDefault(); }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);

  if (!state) return html`<main><p class="loading">Connecting to the dashboard server…</p></main>`;
  const recipient = to || state.members.find((m) => m.inRoster && m.name !== state.actor)?.name || '';
  const run = async (action: WireAction): Promise<boolean> => {
    const r = await act(team, action);
    setResult(r);
    return r.ok;
  };
  const onTabKey = (e: KeyboardEvent) => {
    const i = TABS.findIndex(([id]) => id === tab);
    const next = e.key === 'ArrowRight' ? (i + 1) % TABS.length : e.key === 'ArrowLeft' ? (i + TABS.length - 1) % TABS.length : -1;
    if (next < 0) return;
    setTab(TABS[next]![0]);
    setTimeout(() => document.getElementById(`tab-${TABS[next]![0]}`)?.focus(), 0);
    e.preventDefault();
  };
  const count = (id: Tab): string => (id === 'requests' ? ` (${state.requests.length})` : id === 'dead' ? ` (${state.deadLetters.length})` : id === 'tasks' ? ` (${state.tasks.length})` : id === 'messages' ? ` (${state.unread} unread)` : id === 'leases' ? ` (${state.leases.length})` : '');
  const switchTeam = (t: string) => {
    const url = new URL(location.href);
    url.searchParams.set('team', t);
    history.replaceState(null, '', url.pathname + url.search);
    setState(undefined);
    setTeam(t);
  };
  return html`<div class="app">
    <header class="top">
      <h1>mailroom · <select aria-label="Team" value=${state.team} onChange=${(e: Event) => switchTeam((e.target as HTMLSelectElement).value)}>${(teams.length ? teams : [state.team]).map((t) => html`<option value=${t}>${t}</option>`)}</select></h1>
      <span class="meta">${plural(state.members.filter((m) => m.inRoster).length, 'member')} · ${plural(state.tasks.length, 'task')} · ${plural(state.messageTotal, 'message')} (${state.unread} unread) · acting as <b>${state.actor}</b> · ${state.store}</span>
      <span class=${`link ${linked ? 'up' : 'down'}`} role="status" aria-label="connection">${linked ? 'live' : 'reconnecting…'}</span>
    </header>
    ${!state.exists ? html`<p class="banner">${state.ended ? 'Claude Code ended this session; the team is gone. Showing its last state.' : 'The team no longer exists. Showing its last state.'}</p>` : ''}
    ${state.problems.map((p) => html`<p class="banner problem">${p}</p>`)}
    <nav role="tablist" aria-label="Views" onKeyDown=${onTabKey}>${TABS.map(([id, label], i) => html`<button role="tab" id=${`tab-${id}`} aria-selected=${tab === id} tabindex=${tab === id ? 0 : -1} onClick=${() => setTab(id)}><kbd>${i + 1}</kbd> ${label}${count(id)}</button>`)}</nav>
    <p class=${`result ${result ? (result.ok ? 'ok' : 'refused') : ''}`} role="status" aria-live="polite">${result ? (result.ok ? result.message : `${result.code}${result.rule ? ` (rule ${result.rule})` : ''}: ${result.message}`) : ''}</p>
    <section role="tabpanel" aria-labelledby=${`tab-${tab}`} class="view">
      ${tab === 'roster' ? html`<${Roster} state=${state} onMessage=${(m: string) => { setTo(m); setTab('messages'); }} onStop=${(m: string) => run({ kind: 'stop', name: m })} onResume=${(m: string) => run({ kind: 'resume', name: m })} onTranscript=${setTranscript} />` : ''}
      ${tab === 'tasks' ? html`<${Tasks} state=${state} onAdd=${(subject: string, blockedBy: string[], owner: string | undefined) => run({ kind: 'addTask', subject, ...(blockedBy.length ? { blockedBy } : {}), ...(owner ? { owner } : {}) })} onLink=${(id: string, blockedBy: string) => run({ kind: 'link', id, blockedBy })} />` : ''}
      ${tab === 'graph' ? html`<${TaskGraph} tasks=${state.tasks} />` : ''}
      ${tab === 'messages' ? html`<${Messages} state=${state} to=${recipient} setTo=${setTo} onSend=${(m: string, text: string, ask: boolean) => run(ask ? { kind: 'ask', to: m, text } : { kind: 'send', to: m, text })} onOlder=${(before: string) => olderMessages(team, before)} />` : ''}
      ${tab === 'requests' ? html`<${Requests} requests=${state.requests} onAnswer=${(id: string, approve: boolean, reason: string) => run({ kind: 'answer', requestId: id, approve, ...(reason ? { reason } : {}) })} />` : ''}
      ${tab === 'dead' ? html`<${DeadLetters} letters=${state.deadLetters} onRetry=${(id: string) => run({ kind: 'retry', id })} />` : ''}
      ${tab === 'journal' ? html`<${Journal} team=${team} version=${version} />` : ''}
      ${tab === 'leases' ? html`<${Leases} leases=${state.leases} now=${state.at} />` : ''}
    </section>
    ${transcript ? html`<${Transcript} team=${team} member=${transcript} onClose=${() => setTranscript(undefined)} />` : ''}
  </div>`;
}

render(html`<${App} />`, document.getElementById('app')!);
