/** The task board as a table (ready, blocked by, owner, fencing token) with the forms that add a task and a dependency. */
import { useCallback, useState } from 'preact/hooks';
import { html } from './html.js';
import { clock } from './format.js';
import { memo } from './memo.js';
import type { WireClaim, WireState, WireTask } from '../wire.js';

function board(t: WireTask): string {
  if (t.status === 'completed') return 'done';
  if (t.openBlockers.length > 0) return `blocked by ${t.openBlockers.map((b) => `#${b}`).join(' ')}`;
  if (t.ready) return 'ready';
  return t.owner ? 'claimed' : '-';
}

/** A task's claim history (who, fencing token, when, how it ended), as the journal records it. */
function ClaimList({ claims }: { claims: WireClaim[] }) {
  if (claims.length === 0) return html`<p class="meta">No claims in the journal.</p>`;
  return html`<table class="grid claims" aria-label="Claim history"><thead><tr><th>Owner</th><th>Fencing token</th><th>Since</th><th>By</th><th>Ended</th></tr></thead>
    <tbody>${claims.map((c, i) => html`<tr key=${i} data-claim=${i}>
      <td>${c.owner}</td><td class="num">${c.token ?? '-'}</td><td>${clock(c.at)}</td><td>${c.by ?? '-'}</td>
      <td>${c.ended ? html`<span class=${`end end-${c.ended}`}>${c.ended}</span> ${clock(c.endedAt)}${c.endedBy && c.endedBy !== c.owner ? ` by ${c.endedBy}` : ''}` : html`<span class="end held">held</span>`}</td>
    </tr>`)}</tbody></table>`;
}

/** One task row (its detail when open); redrawn only when the task or its openness changed. */
const TaskRow = memo(({ t, open, toggle }: { t: WireTask; open: boolean; toggle(id: string): void }) => html`<tr data-task=${t.id} tabindex="0" class=${open ? 'open' : ''}
          onClick=${() => toggle(t.id)} onKeyDown=${(e: KeyboardEvent) => e.key === 'Enter' && toggle(t.id)}>
        <td>#${t.id}</td><td><span class=${`status status-${t.status}`}>${t.status}</span></td><td>${t.owner ?? '-'}</td>
        <td>${board(t)}</td><td>${t.subject}${open ? html`<div class="detail">${t.description ? html`<p>${t.description}</p>` : ''}${t.metadata ? html`<pre>${t.metadata}</pre>` : ''}<${ClaimList} claims=${t.claims} /></div>` : ''}</td>
        <td>${t.blocks.map((b) => `#${b}`).join(' ') || '-'}</td><td class="num">${t.fencingToken ?? '-'}</td>
      </tr>`);

/** Props of {@link Tasks}. */
export interface TasksProps {
  state: WireState;
  onAdd(subject: string, blockedBy: string[], owner: string | undefined): Promise<boolean>;
  onLink(id: string, blockedBy: string): Promise<boolean>;
}

const ids = (text: string): string[] => text.split(/[\s,#]+/).filter((x) => x !== '');

/** The task table and its forms. */
export function Tasks({ state, onAdd, onLink }: TasksProps) {
  const [subject, setSubject] = useState('');
  const [blockers, setBlockers] = useState('');
  const [owner, setOwner] = useState('');
  const [linkId, setLinkId] = useState('');
  const [linkBy, setLinkBy] = useState('');
  const [open, setOpen] = useState<string | undefined>(undefined);
  const toggle = useCallback((id: string) => setOpen((was) => (was === id ? undefined : id)), []);
  const submitAdd = async (e: Event) => {
    e.preventDefault();
    if (await onAdd(subject, ids(blockers), owner || undefined)) {
      setSubject('');
      setBlockers('');
    }
  };
  const submitLink = async (e: Event) => {
    e.preventDefault();
    if (await onLink(linkId.replace('#', ''), linkBy.replace('#', ''))) setLinkBy('');
  };
  return html`<div>
    <form class="inline" onSubmit=${submitAdd} aria-label="Add a task">
      <input name="subject" placeholder="New task subject" value=${subject} onInput=${(e: Event) => setSubject((e.target as HTMLInputElement).value)} required />
      <input name="blockedBy" placeholder="blocked by (ids)" size="12" value=${blockers} onInput=${(e: Event) => setBlockers((e.target as HTMLInputElement).value)} />
      <select name="owner" value=${owner} onChange=${(e: Event) => setOwner((e.target as HTMLSelectElement).value)}>
        <option value="">no owner</option>
        ${state.members.filter((m) => m.inRoster).map((m) => html`<option value=${m.name}>${m.name}</option>`)}
      </select>
      <button type="submit">Add task</button>
    </form>
    <form class="inline" onSubmit=${submitLink} aria-label="Add a dependency">
      <input name="linkId" placeholder="task" size="6" value=${linkId} onInput=${(e: Event) => setLinkId((e.target as HTMLInputElement).value)} required />
      <span>is blocked by</span>
      <input name="linkBy" placeholder="task" size="6" value=${linkBy} onInput=${(e: Event) => setLinkBy((e.target as HTMLInputElement).value)} required />
      <button type="submit">Add dependency</button>
    </form>
    <table class="grid" aria-label="Tasks">
      <thead><tr><th>ID</th><th>Status</th><th>Owner</th><th>Board</th><th>Subject</th><th>Blocks</th><th>Fencing token</th></tr></thead>
      <tbody>${state.tasks.map((t) => html`<${TaskRow} key=${t.id} t=${t} open=${open === t.id} toggle=${toggle} />`)}</tbody>
    </table>
  </div>`;
}
