/**
 * The lines `mailroom log` prints for journal events (docs/journal.md "Reading"): one per event
 * with `expand`, else runs of routine events collapsed into one line each — consecutive delivery
 * events, consecutive metadata-only updates of one task, consecutive updates of one member. Nothing
 * is dropped: a collapsed line says how many events it stands for. Pure.
 */
import type { DeliveryEvent, MemberEvent, TaskEvent, TeamEventRecord } from '../../protocol/events.js';
import type { Task } from '../../protocol/task.js';
import { messageKey } from '../../domain/entries.js';
import { describeJournalEvent, metadataChanges, oneLine, taskChanges } from './watch-events.js';

/** One printed line and the events it stands for. */
export interface JournalLine {
  text: string;
  events: TeamEventRecord[];
}

/** Turns journal events into lines; remembers task states and message texts across calls (for `--follow`). */
export class JournalPrinter {
  private readonly tasks = new Map<string, Task>();
  private readonly texts = new Map<string, string>();

  /**
   * `describe` renders a message text (callers pass describeText); `expand`: one line per event.
   */
  constructor(
    private readonly describe: (text: string) => string,
    private readonly expand: boolean,
  ) {}

  /** The lines for `events` (in journal order); a run is collapsed only within one call. */
  lines(events: readonly TeamEventRecord[]): JournalLine[] {
    const out: JournalLine[] = [];
    let run: Run | undefined;
    for (const e of events) {
      const previous = e.kind === 'task' ? this.tasks.get(e.task.id) : undefined;
      this.remember(e);
      const kind = this.expand ? undefined : runKind(e, previous);
      if (run && kind !== undefined && run.kind === kind) {
        run.events.push(e);
        continue;
      }
      if (run) out.push(this.finish(run));
      run = kind === undefined ? undefined : { kind, events: [e], before: previous };
      if (!run) out.push({ text: this.single(e, previous), events: [e] });
    }
    if (run) out.push(this.finish(run));
    return out;
  }

  private remember(e: TeamEventRecord): void {
    if (e.kind === 'task') this.tasks.set(e.task.id, e.task);
    if (e.kind === 'message') this.texts.set(messageKey(e.to, e.entry), oneLine(this.describe(e.entry.text), 40));
  }

  private single(e: TeamEventRecord, previous: Task | undefined): string {
    if (e.kind === 'delivery') return `${e.at}  ${this.deliveryHead(e)}: ${e.state}${e.lease ? ` (lease ${e.lease})` : ''}`;
    return describeJournalEvent(e, this.describe, previous);
  }

  private deliveryHead(e: DeliveryEvent): string {
    const text = this.texts.get(`${e.to}\u0000${e.key}`);
    return text === undefined ? `message ${e.key} to ${e.to}` : `message "${text}" to ${e.to}`;
  }

  private finish(run: Run): JournalLine {
    const first = run.events[0]!;
    if (run.events.length === 1) return { text: this.single(first, run.before), events: run.events };
    const n = run.events.length;
    const more = `${n} events; --expand lists each`;
    if (run.kind === 'delivery') return { text: `${first.at}  deliveries: ${deliverySummary(run.events as DeliveryEvent[])} (${more})`, events: run.events };
    if (run.kind.startsWith('task:')) {
      const last = (run.events.at(-1) as TaskEvent).task;
      const changes = metadataChanges(run.before?.metadata, last.metadata);
      return { text: `${first.at}  task #${last.id} "${oneLine(last.subject, 60)}": ${changes.join(', ') || 'metadata touched'} (${n} metadata updates; --expand lists each)`, events: run.events };
    }
    const m = first as MemberEvent;
    const keys = [...new Set(run.events.flatMap((e) => (e as MemberEvent).changed ?? []))];
    return { text: `${first.at}  ${m.name} updated (${keys.join(', ') || 'touched'}) (${more})`, events: run.events };
  }
}

interface Run {
  /** `delivery`, `task:<id>` (metadata-only updates of one task) or `member:<name>` (updates of one member). */
  kind: string;
  events: TeamEventRecord[];
  /** For a task run: the task before its first event. */
  before: Task | undefined;
}

/** The run an event may join when collapsing, or undefined for an event always shown on its own. */
function runKind(e: TeamEventRecord, previous: Task | undefined): string | undefined {
  if (e.kind === 'delivery') return 'delivery';
  if (e.kind === 'member' && e.action === 'updated') return `member:${e.name}`;
  if (e.kind === 'task' && e.action === 'updated' && previous && isMetadataOnly(previous, e.task)) return `task:${e.task.id}`;
  return undefined;
}

/** True when only the task's metadata changed. */
function isMetadataOnly(before: Task, after: Task): boolean {
  const changes = taskChanges(before, after);
  return changes.length > 0 && changes.every((c) => c.startsWith('metadata '));
}

/** `alice 3 delivered, 3 read; bob 1 released`, recipients in order of first appearance. */
function deliverySummary(events: readonly DeliveryEvent[]): string {
  const by = new Map<string, Map<string, number>>();
  for (const e of events) {
    const states = by.get(e.to) ?? by.set(e.to, new Map()).get(e.to)!;
    states.set(e.state, (states.get(e.state) ?? 0) + 1);
  }
  return [...by].map(([to, states]) => `${to} ${[...states].map(([state, n]) => `${n} ${state}`).join(', ')}`).join('; ');
}
