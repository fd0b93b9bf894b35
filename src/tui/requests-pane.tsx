/**
 * The open requests (permission, plan approval, sandbox) teammates sent the lead, oldest first:
 * time, kind, requester, request id and its one-line summary. Shown above the roster while any is
 * open; `a` approves the selected one, `d` denies it with a reason (keys.ts).
 */
import { Text } from 'ink';
import type { OpenRequest } from '../core/messages/approvals.js';
import { cell, clock } from './format.js';
import { listWindow } from './fit.js';
import { innerWidth, MoreLine, Pane } from './pane.js';

/** Props of {@link RequestsPane}. */
export interface RequestsPaneProps {
  requests: readonly OpenRequest[];
  selected: number;
  focused: boolean;
  /** Outer height in rows (border included). */
  height: number;
  width: number;
}

/** See the module comment. */
export function RequestsPane({ requests, selected, focused, height, width }: RequestsPaneProps) {
  const win = listWindow(requests.length, selected, Math.max(1, height - 3));
  const from = Math.min(16, Math.max(4, ...requests.map((r) => r.from.length)));
  const id = Math.min(28, Math.max(2, ...requests.map((r) => r.id.length)));
  const rest = Math.max(8, innerWidth(width) - (8 + 1 + 10 + 1 + from + 1 + id + 1));
  return (
    <Pane title={`Requests (${requests.length} open) — 4 or Tab to focus, a approve, d deny`} focused={focused} height={height}>
      <MoreLine more={win.moreOnTop ? win.more : undefined} />
      {requests.slice(win.start, win.end).map((r, i) => (
        <Text key={r.id} inverse={focused && win.start + i === selected} wrap="truncate">
          <Text dimColor>{clock(r.timestamp)}</Text> <Text color="yellow">{cell(r.kind, 10)}</Text> {cell(r.from, from)} {cell(r.id, id)} {cell(r.summary, rest)}
        </Text>
      ))}
      <MoreLine more={win.moreOnTop ? undefined : win.more} />
    </Pane>
  );
}

/** The deny form opened with `d`: the request and one line of reason; Enter denies, Esc cancels. */
export function DenyForm({ request, reason, height }: { request: { id: string; from: string }; reason: string; height: number }) {
  return (
    <Pane title={`Deny ${request.id} from ${request.from} — type the reason, Enter denies, Esc cancels`} focused height={height}>
      <Text wrap="wrap">
        reason: {reason}
        <Text inverse> </Text>
      </Text>
    </Pane>
  );
}
