/**
 * `mailroom team ask <member> "<question>"`: send a message that expects a reply, wait for the
 * reply (core/messages/ask.ts) and print it. Exit 0 with the reply; WAIT_TIMEOUT (exit 9) when none came in
 * time (the ask is then cancelled, and a late reply is marked as late in the asker's inbox);
 * MEMBER_UNREACHABLE (exit 4) at once for a member that cannot answer.
 */
import { readAsOptionHint } from '../read-as-option.js';
import type { Argv, CommandModule } from 'yargs';
import { guardWait } from '../interrupted-wait.js';
import { MailroomError } from '../../errors.js';
import { assertArgumentUtf8, decodeUtf8Strict } from '../../core/text/utf8-text.js';
import { bareMillisecondsHint, durationOption } from '../durations.js';
import { emit } from '../output.js';
import { teamTarget, type GlobalArgs } from '../globals.js';
import { routed } from '../route-option.js';

interface AskArgs extends GlobalArgs {
  to: string;
  text?: string;
  as?: string;
  summary?: string;
  timeout?: number;
  'idempotency-key'?: string;
  'to-capability'?: string;
}

async function readText(text: string | undefined): Promise<string> {
  if (text !== '-') return assertArgumentUtf8(text ?? '', 'The message argument');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return decodeUtf8Strict(Buffer.concat(chunks), 'stdin').replace(/(\r?\n)+$/, '');
}

/** `team ask`. */
export const teamAskCommand: CommandModule<GlobalArgs, AskArgs> = {
  command: 'ask <to> [text]',
  describe: 'Ask a member a question and wait for its reply (printed)',
  builder: (y) =>
    y
      .positional('to', { type: 'string', demandOption: true, describe: 'Member to ask' })
      .positional('text', { type: 'string', describe: 'The question ("-" reads stdin)' })
      .nargs('text', 1)
      .option('as', { alias: 'from', type: 'string', describe: 'Asker (default: team-lead); the reply arrives in its inbox' })
      .option('summary', { type: 'string', describe: '5–10 word preview' })
      .option('timeout', durationOption('How long to wait for the reply (default 60s); Ctrl-C stops waiting and prints the msg_id (the ask stays sent)'))
      .option('to-capability', { type: 'string', describe: 'Ask the least-loaded live member declaring this capability; the one argument is then the question' })
      .option('idempotency-key', { type: 'string', describe: 'Retry-safe: an ask with a key already used sends nothing new and waits for the first ask\'s reply' })
      .example('$0 team ask researcher "Which survey did you use?" --timeout 2m', 'Ask and print the answer')
      .example('$0 team ask researcher "Status?" --json', 'The ask and its reply as JSON') as Argv<AskArgs>,
  handler: async (a) => {
    const target = await teamTarget(a);
    if (a['to-capability'] !== undefined) {
      await routed(a, target);
    }
    const text = await readText(a.text);
    if (text === '') throw new MailroomError('MESSAGE_INVALID', `The question is empty: give the text to ask.${a.text === undefined ? readAsOptionHint(process.argv.slice(2)) : ''}`);
    const { ask } = await import('../../core/messages/ask.js');
    // Ctrl-C during the wait says the ask was sent (src/cli/interrupted-wait.ts).
    const guard = guardWait('its reply');
    try {
      const result = await ask({ ...target, to: a.to, from: a.as, text, summary: a.summary, timeoutMs: a.timeout, idempotencyKey: a['idempotency-key'], onSent: (s) => guard.sent(s.entry.msg_id!, s.to) }).catch((err: unknown) => {
        // `--timeout 5` is 5 ms: say so where the wait ran out, for whoever meant seconds.
        if (err instanceof MailroomError && err.code === 'WAIT_TIMEOUT') err.message += bareMillisecondsHint(process.argv.slice(2), '--timeout');
        throw err;
      });
      emit(a.json, result, () => result.reply.text);
    } finally {
      guard.dispose();
    }
  },
};
