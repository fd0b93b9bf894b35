/** The roster: one row per member with its presence, and the member actions (message, stop, resume, transcript). */
import { html } from './html.js';
import { ago, clock } from './format.js';
import type { WireMember, WireState } from '../wire.js';

/** Props of {@link Roster}. */
export interface RosterProps {
  state: WireState;
  onMessage(member: string): void;
  onStop(member: string): void;
  onResume(member: string): void;
  onTranscript(member: string): void;
}

function stateCell(m: WireMember) {
  return html`<span class=${`state state-${m.state}`} title=${m.stateReason}>${m.state}</span>`;
}

/** The roster table. */
export function Roster({ state, onMessage, onStop, onResume, onTranscript }: RosterProps) {
  return html`<table class="grid" aria-label="Roster">
    <thead><tr><th>Name</th><th>State</th><th>Host · pid</th><th>Last beat</th><th>Backend</th><th>Model</th><th>Capabilities</th><th>Task</th><th>Unread</th><th>Last sent</th><th></th></tr></thead>
    <tbody>${state.members.map((m) => html`<tr key=${m.name} class=${m.inRoster ? '' : 'departed'} data-member=${m.name}>
      <td><span class="swatch" style=${m.color ? `background:${m.color}` : ''}></span>${m.name}${m.isLead ? html` <span class="tag">lead</span>` : ''}${m.inRoster ? '' : html` <span class="tag">left</span>`}</td>
      <td>${stateCell(m)}</td>
      <td>${m.presence?.host ?? (m.bridged ? 'another machine' : '-')}${m.presence?.pid ? ` · ${m.presence.pid}` : ''}${m.remoteHost ? html` <span class="tag remote" title="runs on another machine">remote</span>` : ''}${m.bridged ? html` <span class="tag remote bridged" title="brought in by mailroom bridge from the shared store: it runs on another machine, and its state here is what the bridge last copied">bridged</span>` : ''}</td>
      <td>${ago(m.presence?.lastBeatAt, state.at)}</td>
      <td>${m.backend ?? '-'}</td>
      <td>${m.model ?? '-'}</td>
      <td>${m.capabilities.join(', ') || '-'}</td>
      <td>${m.currentTask ? `#${m.currentTask.id} ${m.currentTask.subject}` : '-'}</td>
      <td class="num">${m.unread}</td>
      <td>${clock(m.lastActivity)}</td>
      <td class="actions">${m.inRoster ? html`
        <button onClick=${() => onMessage(m.name)}>Message</button>
        ${m.isLead ? '' : html`<button onClick=${() => onStop(m.name)}>Stop</button><button onClick=${() => onResume(m.name)}>Resume</button>`}
        <button onClick=${() => onTranscript(m.name)}>Transcript</button>` : ''}</td>
    </tr>`)}</tbody>
  </table>`;
}
