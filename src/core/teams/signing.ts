/**
 * The guard every mailroom reader of a signed team puts before what it hands on (docs/approvals.md
 * "Signed teams"): the runtime before a model call, MCP `read_inbox`/`wait_for_message`, a teammate
 * waiting for the lead's answer. Entries that fail verification (core/trust/verify.ts) are withheld and
 * reported — journalled as a `refused` event under the member they claim to be from, and told to
 * the lead — and the messages a reader obeys are remembered (host store: control messages until
 * their expiry, plain ones in a bounded memory), so a copy appended again is refused.
 */
import type { InboxEntry } from '../../protocol/inbox.js';
import type { TeamConfig } from '../../protocol/config.js';
import type { MemberRecord } from '../../protocol/member-record.js';
import type { TeamSettings } from '../../protocol/settings.js';
import { SEEN_LIMIT, type SeenIds } from '../../protocol/identity-files.js';
import { findMember, leadName } from '../../domain/roster.js';
import { hostOf, nowOf, teamOf, type TeamOptions } from '../context.js';
import { sendMessage } from '../messages/send.js';
import { journalRefusal } from '../live/journal-refusals.js';
import { loadTrust, type Trust } from '../trust/trust.js';
import { controlTypeOf, verdictOf, type FailCheck, type Verdict } from '../trust/verify.js';

export { enableSigning } from '../trust/identity.js';

/** What a reader already holds current of its team (see {@link ControlGuard.judge}). */
export interface KnownTeam {
  config: TeamConfig;
  settings: TeamSettings;
  records: readonly MemberRecord[];
}

/** An entry that must not be handed on. */
export interface RefusedControl {
  entry: InboxEntry;
  /** Its control type, when it is a control message. */
  type: string | undefined;
  check: FailCheck;
  /** Why, in words (names the claimed sender). */
  reason: string;
}

/** The guard's judgement of a batch. */
export interface Judged {
  /** Entries to withhold. */
  refused: RefusedControl[];
  /** Entries shown but not verified (senders that cannot sign, in a signed team). */
  unverified: Set<InboxEntry>;
  /** Verified entries. */
  verified: Set<InboxEntry>;
  /** Whether the team is signed on this machine, as read for this batch (undefined: an empty batch, nothing read). */
  signed?: boolean | undefined;
}

/** A reader of `to`'s inbox: judges entries, and remembers the control messages it obeyed. */
export class ControlGuard {
  private readonly verdicts = new Map<InboxEntry, Verdict>();

  constructor(
    private readonly options: TeamOptions,
    private readonly to: string,
  ) {}

  /**
   * Judges `entries` (none refused in an open team). A second entry carrying the same signature
   * (nonce) as an earlier one of the batch is a copy appended again: `replayed`. `redelivered`:
   * entries handed out before under a lease that was not acknowledged (the same stored entry, not
   * a copy), exempt from the plain-message replay memory. `known`: the team's config, settings and
   * member records as the caller holds them current for these entries (a teammate's kept view
   * whose stamp matched the take's, src/runtime/delivery/team-view.ts): not read again here.
   * @throws KEY_PERMISSIONS, FILE_CORRUPT (identity files on this machine)
   */
  async judge(entries: readonly InboxEntry[], opts: { redelivered?: ReadonlySet<InboxEntry>; known?: KnownTeam | undefined } = {}): Promise<Judged> {
    const out: Judged = { refused: [], unverified: new Set(), verified: new Set() };
    if (entries.length === 0) return out;
    // This machine's memory of what the member obeyed is read beside the trust, not after it (issue
    // 24: on the delivery path of a signed team's every model request); an open team drops it.
    const memory = this.memoryOf();
    memory.catch(() => undefined); // an open team, or loadTrust failing first: never an unhandled rejection
    const trust = await loadTrust(this.options, opts.known ?? {});
    out.signed = trust.signed;
    if (!trust.signed) return out;
    const reader = this.readerOf(trust, await memory);
    const nonces = new Set<string>();
    for (const entry of entries) {
      let v = verdictOf(trust, entry, this.to, opts.redelivered?.has(entry) ? { ...reader, seen: undefined } : reader);
      if (v.status === 'verified') {
        if (nonces.has(v.nonce)) v = { status: 'failed', check: 'replayed', reason: `from "${entry.from}" repeats an earlier message to "${this.to}" (nonce ${v.nonce}): a copy appended again, a replay` };
        else nonces.add(v.nonce);
      }
      this.verdicts.set(entry, v);
      if (v.status === 'failed') out.refused.push({ entry, type: controlOf(entry), check: v.check, reason: v.reason });
      else if (v.status === 'unverified') out.unverified.add(entry);
      else if (v.status === 'verified') out.verified.add(entry);
    }
    return out;
  }

  /** The refused entries among `entries` (see {@link judge}). */
  async refused(entries: readonly InboxEntry[]): Promise<RefusedControl[]> {
    return (await this.judge(entries)).refused;
  }

  /**
   * Records that the verified entries among `entries` were obeyed (handed on, consumed): control
   * messages by nonce until their expiry (this incarnation), plain messages in the bounded replay
   * memory ({@link SEEN_LIMIT} nonces), so a copy of either appended again is refused.
   */
  async remember(entries: readonly InboxEntry[]): Promise<void> {
    const nonces: [string, number][] = [];
    const plain: [string, number][] = [];
    for (const e of entries) {
      const v = this.verdicts.get(e);
      if (v?.status !== 'verified') continue;
      if (v.expires !== undefined && controlOf(e)) nonces.push([v.nonce, v.expires]);
      else if (!controlTypeOf(e.text)) plain.push([v.nonce, v.at]);
    }
    if (plain.length > 0) await this.rememberPlain(plain);
    if (nonces.length === 0) return;
    const host = hostOf(this.options);
    const [trust, key, prior] = await Promise.all([loadTrust(this.options, { pin: false }), host.readMemberKey(this.options.team, this.to), host.readObeyed(this.options.team, this.to)]);
    const joinedAt = incarnationOf(findMember(trust.config, this.to)?.joinedAt, key?.joinedAt) ?? 0;
    const now = nowOf(this.options);
    const ids: Record<string, number> = {};
    if (prior && prior.joinedAt === joinedAt) for (const [id, exp] of Object.entries(prior.ids)) if (exp >= now) ids[id] = exp;
    for (const [id, exp] of nonces) ids[id] = exp;
    await host.writeObeyed(this.options.team, this.to, { v: 1, joinedAt, ids });
  }

  private async rememberPlain(plain: readonly [string, number][]): Promise<void> {
    const host = hostOf(this.options);
    const prior = await host.readSeen(this.options.team, this.to);
    // A signing time is the signer's claim: remembered as at most this reader's now, so messages dated
    // ahead cannot lift the floor past it (it would withhold every genuine message signed before that date).
    const now = nowOf(this.options);
    await host.writeSeen(this.options.team, this.to, addSeen(prior, plain.map(([nonce, at]): [string, number] => [nonce, Math.min(at, now)])));
  }

  /** The member's obeyed control nonces and plain-message replay memory on this machine. */
  private async memoryOf() {
    const host = hostOf(this.options);
    const [obeyed, seen, key] = await Promise.all([host.readObeyed(this.options.team, this.to), host.readSeen(this.options.team, this.to), host.readMemberKey(this.options.team, this.to)]);
    return { obeyed, seen, keyJoinedAt: key?.joinedAt };
  }

  private readerOf(trust: Trust, { obeyed, seen, keyJoinedAt }: Awaited<ReturnType<ControlGuard['memoryOf']>>) {
    const member = findMember(trust.config, this.to);
    return { name: this.to, joinedAt: incarnationOf(member?.joinedAt, keyJoinedAt), obeyed, seen: seen ?? { v: 1 as const, floor: 0, ids: {} }, now: nowOf(this.options) };
  }
}

/**
 * The reader's incarnation a control message must be bound to: the later of its roster `joinedAt`
 * (shared state, which anyone who can write config.json can delete or set back to an earlier
 * incarnation) and the `joinedAt` its key file on this machine was made for (host store). Rewriting
 * the roster can then only raise it — refusing genuine control messages, which deleting them does
 * too — never lower it to a captured earlier incarnation's, nor drop it so a replay is not checked.
 * Undefined only when neither is known (a reader with no key here and no roster joinedAt).
 */
export function incarnationOf(rosterJoinedAt: number | undefined, keyJoinedAt: number | undefined): number | undefined {
  if (rosterJoinedAt === undefined) return keyJoinedAt;
  if (keyJoinedAt === undefined) return rosterJoinedAt;
  return Math.max(rosterJoinedAt, keyJoinedAt);
}

/**
 * `prior` with `added` (nonce, signing time) remembered, kept to {@link SEEN_LIMIT} nonces: the
 * oldest by signing time are dropped and the floor rises to the latest dropped one.
 */
export function addSeen(prior: SeenIds | undefined, added: readonly [string, number][]): SeenIds {
  const ids: Record<string, number> = { ...(prior?.ids ?? {}) };
  for (const [nonce, at] of added) ids[nonce] = at;
  let floor = prior?.floor ?? 0;
  const all = Object.entries(ids);
  if (all.length > SEEN_LIMIT) {
    all.sort((a, b) => a[1] - b[1]);
    for (const [nonce, at] of all.slice(0, all.length - SEEN_LIMIT)) {
      delete ids[nonce];
      if (at > floor) floor = at;
    }
  }
  return { v: 1, floor, ids };
}

function controlOf(entry: InboxEntry): string | undefined {
  try {
    const parsed = JSON.parse(entry.text) as { type?: unknown };
    return typeof parsed?.type === 'string' ? parsed.type : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reports withheld entries: a `refused` event per entry (actor: whom it claims to be from, rule
 * `signature`) and, unless the reader is the lead, one message to the lead naming them. Never
 * throws; `log` gets what could not be reported.
 */
export async function reportWithheld(options: TeamOptions, reader: string, refused: readonly RefusedControl[], surface: string, log: (line: string) => void): Promise<void> {
  if (refused.length === 0) return;
  for (const r of refused) {
    await journalRefusal(options, r.entry.from, { action: 'control', rule: 'signature', code: 'NOT_PERMITTED', message: `withheld from ${reader}: ${r.reason}`, target: reader, surface }).catch((e: unknown) => log(`could not journal a withheld message: ${String(e)}`));
  }
  try {
    const lead = leadName(await teamOf(options).readConfig(options.team));
    if (reader === lead) return;
    const lines = refused.map((r) => `- ${r.reason} (msg_id ${r.entry.msg_id ?? 'none'})`);
    await sendMessage({ ...options, from: reader, to: lead, text: `Withheld ${refused.length} message(s) that failed verification in signed team "${options.team}":\n${lines.join('\n')}`, summary: 'Withheld unverifiable messages' });
  } catch (e) {
    log(`could not tell the lead about withheld messages: ${e instanceof Error ? e.message : String(e)}`);
  }
}
