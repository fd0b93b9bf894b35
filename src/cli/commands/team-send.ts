/**
 * `mailroom team send` and `mailroom team broadcast`: plain and structured messages.
 */
import type { Argv, CommandModule } from 'yargs';
import { guardWait, type GuardedWait } from '../interrupted-wait.js';
import { MailroomError } from '../../errors.js';
import { assertArgumentUtf8, decodeUtf8Strict } from '../../core/text/utf8-text.js';
import { emit, writeStderr } from '../output.js';
import { bareMillisecondsHint, durationOption } from '../durations.js';
import { teamTarget, type GlobalArgs } from '../globals.js';
import { plural } from '../../core/text/plural.js';
import type { SentMessage } from '../../core/messages/send.js';
import type { Stores } from '../../store/selection.js';
import { leadHearingWarning } from '../../core/messages/lead-hearing.js';
import { terminalSafe } from '../../core/text/terminal-text.js';
import { routed } from '../route-option.js';
import { declareLine, type CommandLine } from '../command-line.js';
import { flagReadAsText, readAsOptionHint } from '../read-as-option.js';
import { withConfig } from '../../core/teams/known-config.js';
import type { TeamConfig } from '../../protocol/config.js';

interface SendArgs extends GlobalArgs {
  to: string;
  text?: string;
  as?: string;
  summary?: string;
  'shutdown-request'?: boolean;
  'shutdown-approve'?: boolean;
  'shutdown-reject'?: boolean;
  'request-id'?: string;
  reason?: string;
  structured?: string;
  'idempotency-key'?: string;
  'to-capability'?: string;
  wait?: string;
  timeout?: number;
  'wait-for-start'?: boolean;
}

/** `team send`'s line (src/cli/command-line.ts): its yargs builder and the direct reader both declare from it. */
export const SEND_LINE: CommandLine = {
  words: ['team', 'send'],
  positionals: [
    { name: 'to', required: true, describe: 'Recipient member name' },
    { name: 'text', describe: 'Message text ("-" reads stdin)' },
  ],
  options: {
    as: { alias: 'from', type: 'string', describe: 'Sender member name (default: team-lead); --from is the same' },
    summary: { type: 'string', describe: '5–10 word preview' },
    'shutdown-request': { type: 'boolean', describe: 'Send a shutdown_request (lead → teammate)' },
    'shutdown-approve': { type: 'boolean', describe: 'Answer a shutdown_request with approval (needs --as, --request-id)' },
    'shutdown-reject': { type: 'boolean', describe: 'Answer a shutdown_request with a rejection (needs --as, --request-id, --reason)' },
    'request-id': { type: 'string', describe: 'Request id being answered (echoed byte for byte)' },
    reason: { type: 'string', describe: 'Reason for a shutdown request or rejection' },
    structured: { type: 'string', describe: 'Any protocol message as JSON, e.g. \'{"type":"plan_approval_response","requestId":"…","approved":true}\'' },
    wait: { type: 'string', choices: ['delivered', 'read', 'replied'], describe: 'Wait until the message is delivered (handed to its reader), read, or replied to; to a member nothing runs, the message is sent and the wait ends at once (exit 9, WAIT_UNREACHABLE)' },
    timeout: durationOption('With --wait: how long to wait (default 60s)'),
    'wait-for-start': { type: 'boolean', describe: 'With --wait: keep waiting even if nothing runs the recipient yet (you start it meanwhile)' },
    'to-capability': { type: 'string', describe: 'Send to the least-loaded live member declaring this capability; the one argument is then the text' },
    'idempotency-key': { type: 'string', describe: 'Retry-safe: a send with a key already used (24 h) stores nothing new and prints the first send\'s message' },
  },
  conflicts: [['shutdown-approve', 'shutdown-reject']],
};

function sendBuilder(y: Argv<GlobalArgs>): Argv<SendArgs> {
  return declareLine(y, SEND_LINE)
    .nargs('text', 1) // yargs re-parses positionals as `--text <value>`; without nargs a lone "-" becomes ""
    .example('$0 team send researcher "Start with the 2024 survey" --summary "Where to start"', 'Message researcher as the lead')
    .example('$0 team send --to-capability review "Please review PR 12"', 'Message the least-loaded live reviewer')
    .example('$0 team send researcher "Ready?" --wait read --timeout 2m', 'Wait until researcher has read it (ends at once, message sent, when nothing runs researcher)')
    .example('$0 team send researcher --shutdown-request --reason "done"', 'Ask researcher to shut down')
    .example('$0 team send team-lead --as bob --shutdown-approve --request-id shutdown-1767225600000@bob', "Approve a shutdown as bob, naming the id of the request bob was sent") as Argv<SendArgs>;
}

/** The text argument, or stdin for `-` without its trailing newlines (as the shell's `$(cat)` gives it). */
async function readText(text: string | undefined, to?: string): Promise<string> {
  if (text === undefined) throw missingText(to);
  if (text !== '-') return assertArgumentUtf8(text, 'The message argument');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return decodeUtf8Strict(Buffer.concat(chunks), 'stdin').replace(/(\r?\n)+$/, '');
}

/** The refusal of a send with no text, naming a flag the text may have been read as (./read-as-option.ts). */
function missingText(to?: string): MailroomError {
  const argv = process.argv.slice(2);
  const flag = flagReadAsText(argv);
  // `team send "hi"`: the one word was read as the recipient; say so when no flag explains it.
  const asRecipient = flag === undefined && to !== undefined ? ` (${JSON.stringify(to)} was read as the recipient: \`team send <to> <text>\`)` : '';
  return new MailroomError('MESSAGE_INVALID', `Message text is empty: give the text to send (or - to read it from stdin).${asRecipient}${readAsOptionHint(argv)}`, { details: flag === undefined ? {} : { readAsOption: flag } });
}

/** Refuses options that the chosen kind of message would silently ignore. @throws INVALID_ARGUMENT */
function assertOptionsFit(a: SendArgs): void {
  const kind = a['shutdown-request'] ? '--shutdown-request' : a['shutdown-approve'] ? '--shutdown-approve' : a['shutdown-reject'] ? '--shutdown-reject' : a.structured !== undefined ? '--structured' : undefined;
  const answer = kind === '--shutdown-approve' || kind === '--shutdown-reject';
  const ignored: [string, boolean][] = [
    ['a message text', a.text !== undefined && kind !== undefined],
    ['--summary', a.summary !== undefined && kind !== undefined],
    ['--structured', a.structured !== undefined && kind !== '--structured'],
    ['--as (--from: a shutdown request comes from the lead)', a.as !== undefined && kind === '--shutdown-request'],
    ['--request-id', a['request-id'] !== undefined && !answer],
    ['--reason', a.reason !== undefined && kind !== '--shutdown-request' && kind !== '--shutdown-reject'],
    ['--idempotency-key', a['idempotency-key'] !== undefined && kind !== undefined],
    ['--timeout (it goes with --wait)', a.timeout !== undefined && a.wait === undefined],
    ['--wait-for-start (it goes with --wait)', a['wait-for-start'] !== undefined && a.wait === undefined],
    ['--wait', a.wait !== undefined && kind !== undefined],
  ];
  const bad = ignored.find(([, used]) => used);
  if (bad) throw new MailroomError('INVALID_ARGUMENT', `${bad[0]} does not go with ${kind ?? 'a plain message'}: it would be ignored. Leave it out.`);
}

async function dispatch(a: SendArgs, target: { root: Stores; team: string; config: TeamConfig }): Promise<SentMessage> {
  assertOptionsFit(a);
  if (a['shutdown-request']) return (await import('../../core/members/shutdown.js')).requestShutdown({ ...target, to: a.to, reason: a.reason, from: a.as });
  if (a['shutdown-approve'] || a['shutdown-reject']) {
    if (!a.as || !a['request-id']) throw new MailroomError('INVALID_ARGUMENT', 'A shutdown answer needs --as <teammate> and --request-id <id from the request>.');
    const { respondToShutdown } = await import('../../core/members/shutdown.js');
    return respondToShutdown({ ...target, from: a.as, requestId: a['request-id'], approve: a['shutdown-approve'] === true, reason: a.reason, to: a.to });
  }
  const { sendMessage, sendStructured } = await import('../../core/messages/send.js');
  if (a.structured !== undefined) return sendStructured({ ...target, to: a.to, from: a.as, message: parseStructured(a.structured) });
  // Waiting for a reply makes the message an ask (core/messages/ask.ts): its reader's next message to the sender answers it.
  const extras = a.wait === 'replied' ? { reply_expected: true, reply_by: new Date(Date.now() + (a.timeout ?? 60_000)).toISOString() } : undefined;
  return sendMessage({ ...target, to: a.to, from: a.as, summary: a.summary, text: await readText(a.text, a.to), ...(a['idempotency-key'] !== undefined ? { idempotencyKey: a['idempotency-key'] } : {}), ...(extras ? { extras } : {}) });
}

function parseStructured(json: string): { type: string } & Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new MailroomError('MESSAGE_INVALID', `--structured is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') {
    throw new MailroomError('MESSAGE_INVALID', '--structured must be a JSON object with a string "type" (e.g. {"type":"mode_set_request","mode":"plan"}).');
  }
  return value as { type: string } & Record<string, unknown>;
}

/** One stderr line when the message went to a Claude Code lead that does not read its inbox now (core/messages/lead-hearing.ts). */
async function warnIfLeadCannotHear(target: { root: Stores; team: string; config?: TeamConfig }, to: readonly string[]): Promise<void> {
  const warning = await leadHearingWarning({ ...target, to });
  if (warning !== undefined) writeStderr(`mailroom: warning: ${terminalSafe(warning)}\n`);
}

/** `team send`. */
export const teamSendCommand: CommandModule<GlobalArgs, SendArgs> = {
  command: 'send <to> [text]',
  describe: "Append a message to a member's inbox (plain or structured)",
  builder: sendBuilder,
  handler: async (a) => {
    const target = await teamTarget(a);
    // The config is read once here and passed down (routing, the send, the lead-hearing warning).
    const known = await withConfig(target);
    const route = a['to-capability'] !== undefined ? await routed(a, known) : undefined;
    // Ctrl-C during --wait says the message was sent (src/cli/interrupted-wait.ts); held from
    // before the send, so a Ctrl-C as it is stored is not lost.
    const guard = a.wait !== undefined ? guardWait(WAITED_FOR[a.wait] ?? `it to be ${a.wait}`) : undefined;
    try {
      await sendThenWait(a, target, known, route, guard);
    } finally {
      guard?.dispose();
    }
  },
};

/** What `--wait <state>` waits for, as the interrupted line says it. */
const WAITED_FOR: Readonly<Record<string, string>> = { delivered: 'it to be delivered', read: 'it to be read', replied: 'its reply' };

async function sendThenWait(a: SendArgs, target: Awaited<ReturnType<typeof teamTarget>>, known: Awaited<ReturnType<typeof withConfig>>, route: Awaited<ReturnType<typeof routed>> | undefined, guard: GuardedWait | undefined): Promise<void> {
  const sent = await dispatch(a, known);
  if (a.wait !== undefined) {
    guard?.sent(sent.entry.msg_id!, sent.to);
    const { waitForState } = await import('../../core/messages/delivery-status.js');
    const status = await waitForState({ ...target, msgId: sent.entry.msg_id!, state: a.wait as 'delivered' | 'read' | 'replied', timeoutMs: a.timeout ?? 60_000, waitForStart: a['wait-for-start'] }).catch((err: unknown) => {
      // `--timeout 5` is 5 ms: say so where the wait ran out, as `team ask` does.
      if (err instanceof MailroomError && err.code === 'WAIT_TIMEOUT') err.message += bareMillisecondsHint(process.argv.slice(2), '--timeout');
      throw err;
    });
    emit(a.json, { ...sent, ...(route ? { route } : {}), status }, () => `Sent to ${sent.to} (msg_id ${sent.entry.msg_id}): ${status.state}${typeof status.at[status.state] === 'string' ? ` at ${status.at[status.state] as string}` : ''}`);
    return;
  }
  if (route) {
    emit(a.json, { ...sent, route }, () => `Sent to ${sent.to} (capability ${route.capability}: least loaded of ${route.candidates.length}) at ${sent.entry.timestamp} (msg_id ${sent.entry.msg_id})`);
    return;
  }
  emit(a.json, sent, () =>
    sent.replayed ? `Already sent to ${sent.to} at ${sent.entry.timestamp} (msg_id ${sent.entry.msg_id}): a retry of idempotency key ${JSON.stringify(a['idempotency-key'])}, nothing new stored` : `Sent to ${sent.to} at ${sent.entry.timestamp} (msg_id ${sent.entry.msg_id})`,
  );
  await warnIfLeadCannotHear(known, [sent.to]);
}

interface BroadcastArgs extends GlobalArgs {
  text: string;
  as?: string;
  summary?: string;
  'idempotency-key'?: string;
}

/** `team broadcast`'s line (see {@link SEND_LINE}). */
export const BROADCAST_LINE: CommandLine = {
  words: ['team', 'broadcast'],
  positionals: [{ name: 'text', required: true, describe: 'Message text ("-" reads stdin)' }],
  options: {
    as: { alias: 'from', type: 'string', describe: 'Sender (default: team-lead); --from is the same' },
    summary: { type: 'string', describe: '5–10 word preview' },
    'idempotency-key': { type: 'string', describe: "Retry-safe: a broadcast with a key already used (24 h) stores nothing new and prints the first broadcast's copies" },
  },
};

/** `team broadcast`. */
export const teamBroadcastCommand: CommandModule<GlobalArgs, BroadcastArgs> = {
  command: 'broadcast <text>',
  describe: 'Send a message to every member except the sender',
  builder: (y) =>
    declareLine(y, BROADCAST_LINE)
      .nargs('text', 1) // keeps a lone "-" (see sendBuilder)
      .example('$0 team broadcast "Stand-up in 5 minutes"', 'Message everyone')
      .example('$0 team broadcast "Release 1.2 is out" --idempotency-key release-1.2', 'Safe to run again: a retry sends nothing twice') as Argv<BroadcastArgs>,
  handler: async (a) => {
    const known = await withConfig(await teamTarget(a));
    const { broadcast } = await import('../../core/messages/send.js');
    const key = a['idempotency-key'];
    const sent = await broadcast({ ...known, text: await readText(a.text), from: a.as, summary: a.summary, ...(key !== undefined ? { idempotencyKey: key } : {}) });
    const to = sent.map((s) => s.to).join(', ') || '(nobody)';
    emit(a.json, sent, () =>
      sent.some((s) => s.replayed) ? `Already sent to ${plural(sent.length, 'member')}: ${to} — a retry of idempotency key ${JSON.stringify(key)}, nothing new stored` : `Sent to ${plural(sent.length, 'member')}: ${to}`,
    );
    await warnIfLeadCannotHear(known, sent.map((s) => s.to));
  },
};
