/**
 * The `mailroom watch` screen for one snapshot: header, roster, task board, message flow, footer;
 * detail views and the send form. Keys (see keys.ts): Tab/←/→ or 1–3 switch panes, ↑/↓ (j/k)
 * move, g/G top and bottom, Enter opens, Esc goes back, `s` sends as the lead, `q` quits; while
 * requests are open their pane comes first (4 focuses it), `a` approves, `d` denies with a reason.
 * While path leases are live, a leases pane under the roster lists them (./leases-pane.tsx).
 */
import { memberCount } from '../core/live/member-count.js';
import { useMemo, useRef, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import type { TeamSnapshot } from '../core/live/snapshot.js';
import { terminalSafe, terminalSafeDeep } from '../core/text/terminal-text.js';
import { MemberDetail, MessageDetail, TaskDetail } from './detail-views.js';
import { INITIAL_UI, reduceKey, selectedRow, splitKeys, type Effect, type UiState } from './keys.js';
import { MessagesPane } from './messages-pane.js';
import { layout } from './navigation.js';
import { RosterPane } from './roster-pane.js';
import { SendForm } from './send-form.js';
import { DenyForm, RequestsPane } from './requests-pane.js';
import type { OpenRequest } from '../core/messages/approvals.js';
import { TasksPane } from './tasks-pane.js';
import { LeasesPane } from './leases-pane.js';
import type { PathLease } from '../protocol/path-lease.js';
import { plural } from '../core/text/plural.js';

/** Props of {@link WatchApp}. */
export interface WatchAppProps {
  snapshot: TeamSnapshot;
  /** Footer text: the latest event, or the result of a send. */
  status?: string | undefined;
  columns: number;
  rows: number;
  /** Sends `text` to `to` as the lead; resolves with a line for the footer. */
  onSend(to: string, text: string): Promise<string>;
  onQuit(): void;
  /** The open requests (core/live/requests-follow.ts); the pane shows while any is open. */
  requests?: readonly OpenRequest[] | undefined;
  /** Approves or denies (with a reason) request `id` as the lead; resolves with a line for the footer. */
  onAnswer?: ((id: string, approve: boolean, reason: string | undefined) => Promise<string>) | undefined;
  /** Adds this command's store options to a repair command shown for a flagged problem. */
  fixCommand?: ((command: string) => string) | undefined;
  /** The live path leases (./leases-follow.ts); their pane shows under the roster while any is live. */
  leases?: readonly PathLease[] | undefined;
}

/** See the module comment. */
export function WatchApp({ snapshot, status, columns, rows, onSend, onQuit, fixCommand, requests = NO_REQUESTS, onAnswer, leases = NO_LEASES }: WatchAppProps) {
  const [ui, setUi] = useState<UiState>(INITIAL_UI);
  const latest = useRef(ui);
  // The input handler is re-subscribed after a render commits; keys that arrive in between must
  // act on the requests on screen, not on the list before an answer.
  const shown = useRef(requests);
  shown.current = requests;
  const [notice, setNotice] = useState<{ text: string; over: string | undefined } | undefined>();

  const run = (effect: Effect) => {
    if (effect.kind === 'quit') return onQuit();
    const show = (text: string) => setNotice({ text, over: status });
    if (effect.kind === 'answer') {
      if (!onAnswer) return show('answering requests is not available here');
      show(`${effect.approve ? 'approving' : 'denying'} ${effect.id}…`);
      onAnswer(effect.id, effect.approve, effect.reason).then(show, (err: unknown) => show(`answer failed: ${err instanceof Error ? err.message : String(err)}`));
      return;
    }
    show(`sending to ${effect.to}…`);
    onSend(effect.to, effect.text).then(show, (err: unknown) => show(`send failed: ${err instanceof Error ? err.message : String(err)}`));
  };
  useInput((input, key) => {
    let next = latest.current;
    for (const [i, k] of splitKeys(input, key)) {
      const r = reduceKey(next, i, k, snapshot, shown.current);
      next = r.ui;
      if (r.effect) run(r.effect);
    }
    latest.current = next;
    setUi(next);
  });

  // Text from agents is shown with its terminal-active characters escaped (core/text/terminal-text.ts);
  // lookups (selection, detail views) use the snapshot as it is.
  const safe = useMemo(() => terminalSafeDeep(snapshot), [snapshot]);
  // A corrupt file is flagged on its own line under the header (issue 9 item 5); the panes give up the rows.
  const problems = safe.problems.slice(0, 2);
  const h = layout(rows - problems.length, snapshot, requests.length, leases.length);
  const c = snapshot.counts.tasks;
  const footer = terminalSafe((notice && notice.over === status ? notice.text : status) ?? '');
  return (
    <Box flexDirection="column" width={columns} height={rows}>
      <Text bold wrap="truncate">
        mailroom watch · team {safe.team}
        {snapshot.exists ? '' : ' (removed)'} · {memberCount(snapshot.members)} · {plural(c.pending + c.in_progress + c.completed, 'task')} · {plural(snapshot.messages.length, 'message')} ({snapshot.counts.unread} unread)
      </Text>
      {problems.map((p, i) => (
        <Text key={i} color="red" wrap="truncate">
          ⚠ {p.code}: {p.message}
          {p.fix ? ` Run \`${fixCommand ? fixCommand(p.fix) : p.fix}\`.` : ''}
        </Text>
      ))}
      <Body ui={ui} snapshot={snapshot} safe={safe} requests={requests} leases={leases} columns={columns} heights={h} />
      <Box flexGrow={1} />
      <Text dimColor wrap="truncate">
        Tab pane · ↑↓ move · Enter open · Esc back · s send{requests.length > 0 ? ' · a/d approve/deny' : ''} · q quit{footer ? ` │ ${footer}` : ''}
      </Text>
    </Box>
  );
}

const NO_REQUESTS: readonly OpenRequest[] = [];
const NO_LEASES: readonly PathLease[] = [];

type BodyProps = { ui: UiState; snapshot: TeamSnapshot; safe: TeamSnapshot; requests: readonly OpenRequest[]; leases: readonly PathLease[]; columns: number; heights: ReturnType<typeof layout> };

function Body({ ui, snapshot: raw, safe: snapshot, requests, leases, columns, heights: h }: BodyProps) {
  const { view } = ui;
  if (ui.deny) return <DenyForm request={{ id: terminalSafe(ui.deny.id), from: terminalSafe(ui.deny.from) }} reason={terminalSafe(ui.deny.reason)} height={h.body} />;
  if (ui.send) return <SendForm from={snapshot.lead} to={terminalSafe(ui.send.to)} text={terminalSafe(ui.send.text)} height={h.body} />;
  if (view.kind === 'member') {
    const member = raw.members.find((m) => m.name === view.name);
    if (member) return <MemberDetail member={terminalSafeDeep(member)} messages={snapshot.messages} height={h.body} width={columns} />;
  }
  if (view.kind === 'task') {
    const task = raw.tasks.find((v) => v.task.id === view.id);
    if (task) return <TaskDetail view={terminalSafeDeep(task)} height={h.body} width={columns} />;
  }
  if (view.kind === 'message') {
    const message = raw.messages.find((m) => m.key === view.key);
    if (message) return <MessageDetail message={terminalSafeDeep(message)} members={snapshot.members} height={h.body} width={columns} />;
  }
  return (
    <>
      {requests.length > 0 ? (
        <RequestsPane requests={requests} selected={selectedRow(ui, snapshot, 'requests', requests)} focused={ui.pane === 'requests'} height={h.requests} width={columns} />
      ) : null}
      <RosterPane members={snapshot.members} selected={selectedRow(ui, snapshot, 'roster')} focused={ui.pane === 'roster'} height={h.roster} width={columns} />
      {leases.length > 0 ? <LeasesPane leases={leases} height={h.leases} width={columns} /> : null}
      <TasksPane tasks={snapshot.tasks} selected={selectedRow(ui, snapshot, 'tasks')} focused={ui.pane === 'tasks'} height={h.tasks} width={columns} />
      <MessagesPane
        messages={snapshot.messages}
        members={snapshot.members}
        selected={selectedRow(ui, snapshot, 'messages')}
        focused={ui.pane === 'messages'}
        height={h.messages}
        width={columns}
      />
    </>
  );
}
