/**
 * Sending messages: plain text, broadcasts and structured (protocol) messages. Entries carry the
 * fields Claude Code 2.1.332 writes (reference §3): from, text, summary?, timestamp, color?,
 * read:false, type:"message", msgV:1, msg_id. Unknown recipients are refused: no inbox is created.
 */
import { requireSameCall } from '../../domain/key-reused.js';
import { randomUUID } from '../../protocol/random.js';
import { MailroomError, isMailroomError } from '../../errors.js';
import type { Member, TeamConfig } from '../../protocol/config.js';
import { makeInboxEntry, type InboxEntry } from '../../protocol/inbox.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../protocol/json-depth.js';
import { DEFAULT_MAX_MESSAGE_BYTES, MIN_MAX_MESSAGE_BYTES, type TeamSettings } from '../../protocol/settings.js';
import { STRUCTURED_SCHEMAS, isStructuredType, type StructuredMessage } from '../../protocol/structured.js';
import { permissionRequestId, planApprovalRequestId, sandboxRequestId, shutdownRequestId } from '../../protocol/ids.js';
import { refuseAskingYourself } from '../../domain/ask-self.js';
import { leadName, requireMember } from '../../domain/roster.js';
import type { TeamStore } from '../../store/team-store.js';
import { isoTime, nowOf, opOf, teamOf, type TeamOptions } from '../context.js';
import { signOutgoing } from '../trust/message-signing.js';
import { messageActions, requirePermitted } from '../teams/policy.js';
import { configAndSettingsOf, senderView, type KnownConfig, type StampedView } from '../teams/known-config.js';
import { viewMoved } from '../../domain/view-moved.js';

/** Input of {@link sendMessage}. */
export interface SendOptions extends TeamOptions, KnownConfig {
  /** Recipient member name. */
  to: string;
  /** Message text (plain, or a JSON-encoded protocol object). */
  text: string;
  /** Sender member name (default: the lead). */
  from?: string;
  /** 5–10 word preview. */
  summary?: string;
  /**
   * Makes the send safe to retry: a second send with the same key (within 24 h, also racing the
   * first) stores nothing and returns the first one's message.
   */
  idempotencyKey?: string;
  /**
   * mailroom's extra entry fields (docs/format.md "Extra entry fields": `reply_expected`,
   * `in_reply_to`, …), written after Claude Code's own keys; it keeps and ignores them.
   */
  extras?: Readonly<Record<string, unknown>>;
}

/** A delivered message: who got it and the entry as stored. */
export interface SentMessage {
  to: string;
  entry: InboxEntry;
  /** Set when this was a retry of an idempotency key already used: nothing new was stored, this is the first send's message. */
  replayed?: true;
}

/**
 * Appends one message to `to`'s inbox.
 * @throws TEAM_NOT_FOUND, MEMBER_NOT_FOUND (sender or recipient), MESSAGE_INVALID (empty text),
 * MESSAGE_TOO_LARGE (over the team's maxMessageBytes), NOT_PERMITTED (the team policy refuses the
 * sender, `details.rule`), VIEW_MOVED (the team kept changing under the send: {@link underView}),
 * KEY_REUSED (`idempotencyKey` was used for another message: src/domain/key-reused.ts), LOCK_TIMEOUT, FILE_CORRUPT
 */
export async function sendMessage(options: SendOptions): Promise<SentMessage> {
  const store = teamOf(options);
  const [sent] = await underView(options, (view) => deliver(store, view, options, [options.to], 'send')).catch((err: unknown) => rethrowDeparted(store, options.team, err));
  return sent!;
}

/**
 * Throws `err`, worded for a member who left when it is MEMBER_NOT_FOUND for one (the journal is
 * read only then, its module loaded only then: ../members/departed.ts).
 */
async function rethrowDeparted(store: TeamStore, team: string, err: unknown): Promise<never> {
  if (!isMailroomError(err, 'MEMBER_NOT_FOUND')) throw err;
  const { explainDeparted } = await import('../members/departed.js');
  throw await explainDeparted(store, team, err);
}

/** How many appends a send makes before it gives up on a team whose view keeps moving (VIEW_MOVED). */
export const VIEW_ATTEMPTS = 5;

/**
 * Runs `send` with the sender's view of the team — the kept one the options carry with its stamp,
 * else read now with its stamp ({@link senderView}) — and, when the append found that view moved
 * (VIEW_MOVED: the roster, settings or member records changed since it was read; nothing was
 * stored), again with the view read anew, so every rule (roster, policy, signing) is judged on
 * the view the append's step holds. @throws VIEW_MOVED after {@link VIEW_ATTEMPTS} appends refused in a row
 */
async function underView<T>(options: TeamOptions & KnownConfig, send: (view: StampedView) => Promise<T>): Promise<T> {
  let known: TeamOptions & KnownConfig = options;
  for (let attempt = 1; ; attempt++) {
    const view = await senderView(known);
    try {
      return await send(view);
    } catch (err) {
      if (!(err instanceof MailroomError) || err.code !== 'VIEW_MOVED' || view.viewStamp === undefined) throw err;
      if (attempt >= VIEW_ATTEMPTS) throw viewMoved(options.team, attempt);
      // Read again (with its stamp); a kept view gets the new one for the next send.
      options.senderView?.forget();
      known = { ...options, config: undefined, settings: undefined, viewStamp: undefined };
    }
  }
}

/**
 * Appends one copy of the message per recipient in one store transition (every recipient checked
 * before anything is written, and the team policy for the sender: {@link requirePermitted}), with
 * the config and settings the caller already read (read together: {@link configAndSettingsOf}). @throws NOT_PERMITTED (the policy, or a lead-only message
 * from a member), KEY_REUSED (`keyed`: a keyed plain send or broadcast whose key's first call was
 * another message), plus what {@link sendMessage} throws
 */
async function deliver(store: TeamStore, team: { config: TeamConfig; settings: TeamSettings; viewStamp?: string | undefined }, options: Omit<SendOptions, 'to'>, recipients: readonly string[], keyed?: 'send' | 'broadcast'): Promise<SentMessage[]> {
  const sent = await deliverOnce(store, team, options, recipients);
  // A replay answers only the same call: another text, sender or recipient under the key is KEY_REUSED.
  const key = options.idempotencyKey;
  if (keyed !== undefined && key !== undefined && sent.some((m) => m.replayed)) {
    const from = options.from ?? leadName(team.config);
    requireSameCall(key, keyed, { from, to: keyed === 'send' ? recipients[0] : undefined, text: options.text }, sent.map((m) => ({ from: m.entry.from, to: m.to, text: m.entry.text })));
  }
  return sent;
}

/** {@link deliver} without the check of a replay against the call. */
async function deliverOnce(store: TeamStore, team: { config: TeamConfig; settings: TeamSettings; viewStamp?: string | undefined }, options: Omit<SendOptions, 'to'>, recipients: readonly string[]): Promise<SentMessage[]> {
  const { config, settings } = team;
  const from = options.from ?? leadName(config);
  let sender: Member;
  try {
    sender = requireMember(config, from, 'sender');
    for (const to of recipients) {
      const recipient = requireMember(config, to, 'recipient');
      // An ask (`team send --wait replied`, `team ask`) to its own sender would wait for nobody.
      if (options.extras?.reply_expected === true) refuseAskingYourself(config.name, sender.name, recipient.name);
    }
    if (options.text === '') throw new MailroomError('MESSAGE_INVALID', 'Message text is empty: give the text to send.');
    requireSize(settings, options.team, options.text, options.summary);
    if (recipients.length === 0) return [];
    // The team policy binds the sender here, whichever surface sent (src/domain/policy.ts).
    await requirePermitted(options, from, recipients.flatMap((to) => messageActions(options.text, to)), config, settings);
  } catch (err) {
    const replay = await replayIfGone(store, options, err);
    if (replay) return replay;
    throw err;
  }
  // In a signed team every entry carries its sender's signature (core/trust/message-signing.ts).
  const messages = await signOutgoing(options, { config, settings }, from, recipients.map((to) => ({ to, entry: buildEntry(options, from, sender.color) })));
  // A send never archives (issue 24 item 4): readers and the archiver move read history beside sends (./inbox-archiver.ts).
  // Under the stamp the view was read with: the append stores nothing if the team moved since (VIEW_MOVED, {@link underView}).
  const { value } = await store.appendMessages(options.team, messages, { ...opOf(options, from), idempotencyKey: options.idempotencyKey, expectViewStamp: team.viewStamp });
  return value.messages.map((m) => (value.replayed ? { to: m.to, entry: m.entry, replayed: true as const } : { to: m.to, entry: m.entry }));
}

/** The refusals of a team that changed since a keyed call stored its messages: its retry replays instead. */
const REPLAYED_REFUSALS = ['MEMBER_NOT_FOUND', 'NOT_PERMITTED', 'MESSAGE_TOO_LARGE'] as const;

/**
 * A keyed retry that the team as it is now refuses — its sender or recipient no longer in the
 * roster (MEMBER_NOT_FOUND), the policy no longer letting the sender send it (NOT_PERMITTED), a
 * lowered size limit (MESSAGE_TOO_LARGE): the first call's messages when it stored them (its checks
 * passed then, so the retry answers with that outcome, as the store's own replay does), else
 * undefined (the refusal stands). A store read only on such a refusal, never on the way of a send
 * that goes through. (A policy refusal is journalled before this: the log shows the retry refused.)
 */
async function replayIfGone(store: TeamStore, options: Omit<SendOptions, 'to'>, err: unknown): Promise<SentMessage[] | undefined> {
  const key = options.idempotencyKey;
  if (key === undefined || !REPLAYED_REFUSALS.some((code) => isMailroomError(err, code))) return undefined;
  const known = await store.readAppended(options.team, key);
  return known?.map((m) => ({ to: m.to, entry: m.entry, replayed: true as const }));
}

/** Input of {@link broadcast}. */
export interface BroadcastOptions extends TeamOptions, KnownConfig {
  text: string;
  from?: string;
  summary?: string;
  /** As {@link SendOptions.idempotencyKey}, for the whole broadcast. */
  idempotencyKey?: string;
}

/**
 * Sends one copy to every member except the sender (compared case-insensitively, as Claude Code),
 * in one transition: every recipient is checked before any copy is written.
 * @returns one {@link SentMessage} per recipient, in roster order.
 */
export async function broadcast(options: BroadcastOptions): Promise<SentMessage[]> {
  const store = teamOf(options);
  return underView(options, (team) => {
    const from = options.from ?? leadName(team.config);
    requireMember(team.config, from, 'sender');
    const recipients = team.config.members.filter((m) => m.name.toLowerCase() !== from.toLowerCase()).map((m) => m.name);
    return deliver(store, team, { ...options, from }, recipients, 'broadcast');
  }).catch((err: unknown) => rethrowDeparted(store, options.team, err));
}

/** Input of {@link sendStructured}. */
export interface SendStructuredOptions extends TeamOptions, KnownConfig {
  to: string;
  /** Sender (default: the lead). Filled into the message's own `from` when its type has one. */
  from?: string;
  /** The protocol object; `timestamp` and `from` are filled in when its type uses them and they are missing. */
  message: { type: string } & Record<string, unknown>;
  /**
   * The roster to check sender and recipient against, read before the sender left (a teammate's
   * `shutdown_approved` is sent after it left, see {@link respondToShutdown}); default: read now.
   */
  rosterAsOf?: TeamConfig;
}

/**
 * Validates and sends a structured message (its JSON goes into `text`).
 * @throws MESSAGE_INVALID naming the bad fields, plus everything {@link sendMessage} throws.
 */
export async function sendStructured(options: SendStructuredOptions): Promise<SentMessage & { message: StructuredMessage }> {
  const store = teamOf(options);
  const now = nowOf(options);
  const send = (view: StampedView) => {
    const from = options.from ?? leadName(view.config);
    const message = completeStructured(withRequestId(options.message, { from, to: options.to, team: options.team, now }), from, now);
    // The entry carries the same instant as the message inside it (and its request id), as in Claude Code.
    return deliver(store, view, { ...options, now: () => now, from, text: JSON.stringify(message) }, [options.to]).then(([sent]) => ({ ...sent!, message }));
  };
  // A roster from before the sender left is judged as given: not checked against the team's view now.
  if (options.rosterAsOf) return send({ ...(await configAndSettingsOf({ ...options, config: options.rosterAsOf })), viewStamp: undefined });
  return underView(options, send).catch((err: unknown) => rethrowDeparted(store, options.team, err));
}

/**
 * Fills `from`/`timestamp` where the type's schema has them, then validates; the result has its
 * keys in the schema's (Claude Code's) order.
 * @throws MESSAGE_INVALID (bad fields, or an own `from` that is not the sender)
 */
export function completeStructured(input: { type: string } & Record<string, unknown>, from: string, nowMs: number): StructuredMessage {
  const type = input.type;
  if (!isStructuredType(type)) {
    throw new MailroomError('MESSAGE_INVALID', `Unknown structured message type "${type}". Known types: ${Object.keys(STRUCTURED_SCHEMAS).join(', ')}.`);
  }
  if (nestsDeeperThan(input)) {
    throw new MailroomError('MESSAGE_INVALID', `The ${type} message nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep: flatten it.`, { details: { type, maxDepth: MAX_JSON_DEPTH } });
  }
  const message: Record<string, unknown> = { ...input };
  const shape = schemaKeys(type);
  if (shape.includes('from') && message.from !== undefined && message.from !== from) {
    // Reference §4: an object's own `from` must equal the entry's (2.1.332 shows the entry's sender).
    throw new MailroomError('MESSAGE_INVALID', `The ${type} message says "from": ${JSON.stringify(message.from)} but is sent by "${from}": leave "from" out or pass --from ${JSON.stringify(message.from)}.`, {
      details: { type, from: message.from, sender: from },
    });
  }
  if (shape.includes('from') && message.from === undefined) message.from = from;
  if (shape.includes('timestamp') && message.timestamp === undefined) message.timestamp = isoTime(nowMs);
  const result = STRUCTURED_SCHEMAS[type].safeParse(message);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new MailroomError('MESSAGE_INVALID', `Invalid ${type} message: ${issues}.`, { details: { type, issues } });
  }
  return inSchemaOrder(message, shape) as StructuredMessage;
}

/** The message with its schema's keys first, in the schema's order (Claude Code's, reference §4), then any others. */
function inSchemaOrder(message: Record<string, unknown>, shape: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set([...shape, ...Object.keys(message)])) {
    if (Object.prototype.hasOwnProperty.call(message, key)) Object.defineProperty(out, key, { value: message[key], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Fills a missing request id of a request type in Claude Code's shape (reference §4):
 * `shutdown-<ms>@<to>`, `plan_approval-<ms>@<from>@<team>`, `perm-<ms>-<7>`, `sandbox-<ms>-<7>`.
 */
function withRequestId(
  message: { type: string } & Record<string, unknown>,
  at: { from: string; to: string; team: string; now: number },
): { type: string } & Record<string, unknown> {
  const fill = (key: string, id: string) => (message[key] === undefined ? { ...message, [key]: id } : message);
  switch (message.type) {
    case 'shutdown_request':
      return fill('requestId', shutdownRequestId(at.to, at.now));
    case 'plan_approval_request':
      return fill('requestId', planApprovalRequestId(at.from, at.team, at.now));
    case 'permission_request':
      return fill('request_id', permissionRequestId(at.now));
    case 'sandbox_permission_request':
      return fill('requestId', sandboxRequestId(at.now));
    default:
      return message;
  }
}

function schemaKeys(type: keyof typeof STRUCTURED_SCHEMAS): string[] {
  const schema = STRUCTURED_SCHEMAS[type];
  const options = 'options' in schema ? schema.options : [schema];
  return options.flatMap((o) => Object.keys(o.shape));
}

function buildEntry(options: Omit<SendOptions, 'to'>, from: string, color: string | undefined): InboxEntry {
  return makeInboxEntry({
    from,
    text: options.text,
    summary: options.summary,
    timestamp: isoTime(nowOf(options)),
    color,
    msgId: randomUUID(),
    extras: options.extras,
  });
}

/**
 * Refuses a text over the team's `maxMessageBytes` (UTF-8 bytes; default
 * {@link DEFAULT_MAX_MESSAGE_BYTES}), its summary counted with it (a summary is stored beside the
 * text): it would be stored in every copy and the journal, and printed whole.
 * @throws MESSAGE_TOO_LARGE naming the size, the limit and the setting
 */
function requireSize(settings: TeamSettings, team: string, text: string, summary = ''): void {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: a text that short is under any allowed limit.
  if ((text.length + summary.length) * 3 <= MIN_MAX_MESSAGE_BYTES) return;
  const bytes = Buffer.byteLength(text, 'utf8') + Buffer.byteLength(summary, 'utf8');
  const limit = settings.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  if (bytes <= limit) return;
  throw new MailroomError(
    'MESSAGE_TOO_LARGE',
    `The message${summary === '' ? '' : ' (text and summary)'} is ${bytes} bytes, over team ${team}'s limit of ${limit} bytes (setting maxMessageBytes; default ${DEFAULT_MAX_MESSAGE_BYTES}, 256 KiB). Send a shorter message — put the content in a file and send its path — or raise the limit with \`mailroom team policy --max-message-bytes <bytes>\`.`,
    { details: { team, bytes, maxMessageBytes: limit } },
  );
}
