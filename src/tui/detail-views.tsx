/**
 * Full-screen views opened with Enter: a member and its inbox, a task, one message. Esc closes.
 * What does not fit the terminal is counted (`+N more`, `+N more lines`), never cut silently.
 */
import { Box, Text } from 'ink';
import type { MemberView, MessageView } from '../core/live/snapshot.js';
import { knownModel } from '../core/members/known-model.js';
import type { TaskView } from '../core/tasks/board.js';
import { plural } from '../core/text/plural.js';
import { cell, clock, paletteColor, stateColor } from './format.js';
import { fitText, listWindow } from './fit.js';
import { boardState } from './tasks-pane.js';
import { innerWidth, MoreLine, Pane } from './pane.js';

interface Sized {
  height: number;
  width: number;
}

/** A member's details and the messages addressed to it (its inbox, including delivered ones). */
export function MemberDetail({ member, messages, height, width }: Sized & { member: MemberView; messages: readonly MessageView[] }) {
  const inbox = messages.filter((m) => m.to === member.name);
  // The newest messages, at the bottom; the earlier ones counted above them.
  const win = listWindow(inbox.length, inbox.length - 1, Math.max(1, height - 9));
  const text = Math.max(10, innerWidth(width) - 28);
  return (
    <Pane title={`Member ${member.name}${member.isLead ? ' (lead)' : ''} — Esc to go back`} focused height={height}>
      <Text wrap="truncate">
        state: <Text color={stateColor(member.state)}>{member.state}</Text> ({member.stateReason})
      </Text>
      <Text wrap="truncate">
        agentId: {member.agentId ?? '-'} · backend: {member.runtime ?? member.backendType ?? '-'} · model: {knownModel(member.model) ?? '-'} · color: {member.color ?? '-'}
        {member.inRoster ? '' : ' · left the team'}
      </Text>
      <Text wrap="truncate">task: {member.currentTask ? `#${member.currentTask.id} ${member.currentTask.subject} (${member.currentTask.status})` : '-'}</Text>
      <Text wrap="truncate">last message sent: {member.lastActivity ?? '-'}</Text>
      <Text> </Text>
      <Text bold wrap="truncate">
        Inbox: {plural(inbox.length, 'message')}, {member.unread} unread
      </Text>
      <MoreLine more={win.more} />
      {inbox.slice(win.start, win.end).map((m) => (
        <Text key={m.key} wrap="truncate">
          <Text dimColor>{clock(m.entry.timestamp)}</Text> <Text color="yellow">{m.status === 'unread' ? '●' : ' '}</Text> {cell(m.entry.from, 16)} {cell(m.line, text)}
        </Text>
      ))}
    </Pane>
  );
}

/** Every field of a task. */
export function TaskDetail({ view, height, width }: Sized & { view: TaskView }) {
  const t = view.task;
  const fixed = 5 + (t.activeForm ? 1 : 0) + (t.metadata ? 1 : 0) + 2;
  const ids = (list: readonly string[]) => list.map((id) => `#${id}`).join(' ') || '-';
  return (
    <Pane title={`Task #${t.id} — Esc to go back`} focused height={height}>
      <Text bold wrap="truncate">{t.subject}</Text>
      <Text wrap="truncate">
        status: {t.status}
        {boardState(view) ? ` (${boardState(view)})` : ''} · owner: {t.owner || '-'}
      </Text>
      {t.activeForm ? <Text wrap="truncate">active form: {t.activeForm}</Text> : null}
      <Text wrap="truncate">
        blocks: {ids(t.blocks)} · blocked by: {ids(t.blockedBy)}
      </Text>
      {t.metadata ? <Text wrap="truncate">metadata: {JSON.stringify(t.metadata)}</Text> : null}
      <Text> </Text>
      <Box flexDirection="column" overflow="hidden">
        {fitText(t.description || '(no description)', innerWidth(width), Math.max(1, height - fixed)).map((line, i) => (
          <Text key={i}>{line || ' '}</Text>
        ))}
      </Box>
    </Pane>
  );
}

/**
 * One message: envelope fields and the text, once: a plain message's text as it is; a structured
 * one rendered by type (one line), then its JSON pretty-printed.
 */
export function MessageDetail({ message, members, height, width }: Sized & { message: MessageView; members: readonly MemberView[] }) {
  const e = message.entry;
  const color = paletteColor(members.find((m) => m.name === e.from)?.color);
  const structured = message.parsed.kind !== 'plain';
  const body = structured ? JSON.stringify(JSON.parse(e.text), null, 2) : e.text;
  const fixed = 4 + (e.summary ? 1 : 0) + (structured ? 2 : 0);
  return (
    <Pane title="Message — Esc to go back" focused height={height}>
      <Text wrap="truncate">
        from <Text color={color}>{e.from}</Text> to {message.to} at {e.timestamp} · {message.status}
        {e.msg_id ? ` · msg_id ${e.msg_id}` : ''}
      </Text>
      {e.summary ? <Text wrap="truncate">summary: {e.summary}</Text> : null}
      {structured ? <Text wrap="truncate">{message.line}</Text> : null}
      {structured ? <Text> </Text> : null}
      <Box flexDirection="column" overflow="hidden">
        {fitText(body, innerWidth(width), Math.max(1, height - fixed)).map((line, i) => (
          <Text key={i}>{line || ' '}</Text>
        ))}
      </Box>
    </Pane>
  );
}
