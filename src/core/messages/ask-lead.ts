/**
 * A teammate asking its lead for permission and waiting for the answer (runtime approvals,
 * `team spawn --approve commands`): sends a `permission_request` (Claude Code's shape, reference
 * §4) to the lead and waits — on the team's feed (core/live/feed.ts), no polling of its own — for the
 * `permission_response` with the same request id in its own inbox, which it then marks read so the
 * answer is not delivered to the model a second time.
 */
import { randomBytes } from '../../protocol/random.js';
import { leadName } from '../../domain/roster.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import type { Approvable } from '../../protocol/settings.js';
import { parseMessageText } from '../../protocol/structured.js';
import { TeamFeed } from '../live/feed.js';
import { markRead } from './inbox-read.js';
import { ControlGuard } from '../teams/signing.js';
import { sendStructured } from './send.js';
import { teamOf, type TeamOptions } from '../context.js';
import { timerDelay } from '../../domain/timer-delay.js';

/** Default wait for the lead's answer (ms): an unanswered request is denied after it. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 30 * 60_000;

/** What a wait for the lead's answer needs. */
type WaitOptions = TeamOptions & { from: string; signal: AbortSignal; timeoutMs?: number | undefined };

/** Input of {@link askPermission}. */
export interface AskPermissionOptions extends TeamOptions {
  /** The asking teammate (the request's `agent_id`: Claude Code puts the worker's name there). */
  from: string;
  /** The tool asked for, as the lead's permission prompt names it (`Bash` for a shell command). */
  toolName: string;
  /** The call's tool_use id (generated when the surface has none). */
  toolUseId?: string | undefined;
  /** One line for the lead. */
  description: string;
  /** The tool's input (for `Bash`: `{command, description}`). */
  input: Record<string, unknown>;
  /** Stops waiting (the teammate stops); the wait then rejects with the signal's reason. */
  signal: AbortSignal;
  /** How long to wait (ms, default {@link DEFAULT_APPROVAL_TIMEOUT_MS}). */
  timeoutMs?: number | undefined;
  /** The team's feed, when the caller has one open (else one is opened for the wait). */
  feed?: TeamFeed | undefined;
}

/** The lead's answer. `timedOut`: no answer came in time (counted as a denial). */
export interface PermissionAnswer {
  requestId: string;
  approved: boolean;
  /** The lead's `error` (denied) or `feedback`. */
  reason?: string | undefined;
  timedOut?: true;
}

/**
 * Asks the lead and waits for its answer.
 * @throws TEAM_NOT_FOUND, MEMBER_NOT_FOUND; the signal's reason when it aborts
 */
export async function askPermission(options: AskPermissionOptions): Promise<PermissionAnswer> {
  const store = teamOf(options);
  const lead = leadName(await store.readConfig(options.team));
  const feed = options.feed ?? (await TeamFeed.open(options.root, options.team));
  try {
    const sent = await sendStructured({
      ...options,
      from: options.from,
      to: lead,
      message: {
        type: 'permission_request',
        agent_id: options.from,
        tool_name: options.toolName,
        tool_use_id: options.toolUseId ?? `toolu_mailroom_${randomBytes(9).toString('hex')}`,
        description: options.description,
        input: options.input,
        permission_suggestions: [],
      },
    });
    const requestId = (sent.message as { request_id: string }).request_id;
    return await waitForAnswer(options, feed, requestId, answerOf);
  } finally {
    if (!options.feed) await feed.close();
  }
}

type AnswerMatcher = (entry: InboxEntry, requestId: string) => PermissionAnswer | undefined;

async function waitForAnswer(options: WaitOptions, feed: TeamFeed, requestId: string, match: AnswerMatcher): Promise<PermissionAnswer> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const until = Date.now() + timeoutMs;
  const { signal } = options;
  while (true) {
    if (signal.aborted) throw signal.reason ?? new Error('aborted');
    // Armed before the re-read: an answer written meanwhile still wakes us.
    const armed = feed.next((h) => h.kind === 'tick' || (h.kind === 'inbox' && h.member === options.from));
    const found = await findAnswer(options, requestId, match);
    if (found) {
      armed.cancel();
      return found;
    }
    const left = until - Date.now();
    if (left <= 0) {
      armed.cancel();
      return { requestId, approved: false, reason: `no answer from the lead within ${timeoutMs} ms`, timedOut: true };
    }
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      armed.promise,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timerDelay(left));
        onAbort = () => resolve();
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    armed.cancel();
    if (timer) clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

async function findAnswer(options: WaitOptions, requestId: string, match: AnswerMatcher): Promise<PermissionAnswer | undefined> {
  const store = teamOf(options);
  // Only the lead answers (src/domain/policy.ts LEAD_ONLY_TYPES): an answer from anyone else is never acted on.
  const lead = leadName(await store.readConfig(options.team));
  const entries = (await store.readInbox(options.team, options.from)).filter((e) => e.from === lead && match(e, requestId) !== undefined);
  // In a signed team an answer that fails verification is ignored (core/teams/signing.ts).
  const guard = new ControlGuard(options, options.from);
  const refused = new Set((await guard.refused(entries)).map((r) => r.entry));
  const entry = entries.find((e) => !refused.has(e));
  if (!entry) return undefined;
  if (entry.read !== true) await markRead({ ...options, agent: options.from, entries: [entry] });
  await guard.remember([entry]);
  return match(entry, requestId);
}

function answerOf(entry: InboxEntry, requestId: string): PermissionAnswer | undefined {
  const parsed = parseMessageText(entry.text);
  if (parsed.kind !== 'structured' || parsed.message.type !== 'permission_response' || parsed.message.request_id !== requestId) return undefined;
  const m = parsed.message;
  if (m.subtype === 'success') {
    const feedback = (m as { feedback?: unknown }).feedback;
    return { requestId, approved: true, reason: typeof feedback === 'string' ? feedback : undefined };
  }
  return { requestId, approved: false, reason: m.error };
}

/**
 * Whether `member` needs the lead's approval for `what` (its member record's `approve`, set by
 * `team spawn --approve` or a team file's `approve`). The lead never does.
 * @throws TEAM_NOT_FOUND
 */
export async function needsApproval(options: TeamOptions, member: string, what: Approvable): Promise<boolean> {
  const store = teamOf(options);
  const records = await store.readMemberRecords(options.team);
  return records.some((r) => r.name === member && (r.approve ?? []).includes(what));
}

/** Input of {@link askPlanApproval}. */
export interface AskPlanOptions extends TeamOptions {
  /** The teammate in plan mode. */
  from: string;
  /** The plan (the teammate's plan-mode reply). */
  plan: string;
  signal: AbortSignal;
  timeoutMs?: number | undefined;
  feed?: TeamFeed | undefined;
}

/**
 * Plan mode (`planModeRequired`): sends the lead a `plan_approval_request` (Claude Code's shape)
 * and waits for its `plan_approval_response`; `reason` is the lead's feedback.
 */
export async function askPlanApproval(options: AskPlanOptions): Promise<PermissionAnswer> {
  const lead = leadName(await teamOf(options).readConfig(options.team));
  const feed = options.feed ?? (await TeamFeed.open(options.root, options.team));
  try {
    const sent = await sendStructured({ ...options, from: options.from, to: lead, message: { type: 'plan_approval_request', planFilePath: '', planContent: options.plan } });
    const requestId = (sent.message as { requestId: string }).requestId;
    return await waitForAnswer(options, feed, requestId, planAnswerOf);
  } finally {
    if (!options.feed) await feed.close();
  }
}

function planAnswerOf(entry: InboxEntry, requestId: string): PermissionAnswer | undefined {
  const parsed = parseMessageText(entry.text);
  if (parsed.kind !== 'structured' || parsed.message.type !== 'plan_approval_response' || parsed.message.requestId !== requestId) return undefined;
  return { requestId, approved: parsed.message.approved, reason: parsed.message.feedback };
}
