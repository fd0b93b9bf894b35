/** The team's path leases (docs/leases.md): who holds which paths or globs, shared or exclusive, until when. Read-only. */
import { html } from './html.js';
import { ago, clock } from './format.js';
import type { WireLease } from '../wire.js';

function until(l: WireLease, now: number): string {
  const left = Math.round((l.expiresAt - now) / 1000);
  return left >= 0 ? `${clock(l.expiresAt)} (in ${left < 120 ? `${left} s` : `${Math.round(left / 60)} min`})` : `${clock(l.expiresAt)} (renewed while its holder beats)`;
}

/** The lease table. */
export function Leases({ leases, now }: { leases: WireLease[]; now: number }) {
  if (leases.length === 0) return html`<p class="empty">No path leases.</p>`;
  return html`<table class="grid" aria-label="Path leases"><thead><tr><th>Holder</th><th>Paths</th><th>Kind</th><th>Until</th><th>Since</th><th>Fencing token</th><th>Reason</th><th>Repository</th></tr></thead>
    <tbody>${leases.map((l) => html`<tr key=${l.id} data-lease=${l.id}>
      <td>${l.holder}</td><td>${l.paths.map((p) => html`<code>${p}</code> `)}</td><td>${l.shared ? 'shared' : 'exclusive'}</td>
      <td>${until(l, now)}</td><td>${ago(l.acquiredAt, now)}</td><td class="num">${l.token}</td><td>${l.reason ?? '-'}</td><td><code>${l.repo}</code></td>
    </tr>`)}</tbody></table>`;
}
