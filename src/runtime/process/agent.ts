/**
 * The body of `mailroom agent <name>`: one teammate in this process, detached (the process backend
 * starts it, its output going to the log file) or in the foreground. It first claims the member's
 * pid record (`teams/<team>/processes/<name>.json`), so a second runtime for the member — foreground
 * or detached — is refused while this one runs; then it reaps the team's commands orphaned by a
 * runtime that died (core/processes/orphan-commands.ts); it logs one timestamped line per event to `out`, and
 * removes its own pid record whenever it returns (a SIGKILLed agent leaves a record that the next
 * claim finds stale).
 */
import { assertCanSign } from '../../core/trust/message-signing.js';
import { MailroomError, isMailroomError } from '../../errors.js';
import type { StoreRef } from '../../core/context.js';
import { requireMember } from '../../domain/roster.js';
import { describeReap, reapOrphanCommands } from '../../core/processes/orphan-commands.js';
import { startSweeper, type Sweeper } from '../../core/members/dead-members.js';
import { startArchiver, type Archiver } from '../../core/messages/inbox-archiver.js';
import { ReaderLease } from '../../core/members/reader-claim.js';
import type { Stores } from '../../store/selection.js';
import { createModel } from '../models/index.js';
import { runTeammate, type TeammateExit } from '../teammate.js';
import { claimTeammate, ownAgentRecord } from './claim.js';

/** Input of {@link runAgentProcess}. */
export interface AgentProcessOptions {
  root: StoreRef;
  team: string;
  name: string;
  /** Model spec (default: the member's `model`, else worker). */
  model?: string;
  /** Stops the teammate (SIGTERM/SIGINT in the CLI). */
  signal?: AbortSignal;
  pollMs?: number;
  /** `TeammateOptions.idleNotifications` (default `changes`): `mailroom agent --idle-notifications`. */
  idleNotifications?: 'changes' | 'every-turn' | undefined;
  /** Receives each log line (with a trailing newline). */
  out: (line: string) => void;
}

/**
 * Runs the teammate until it stops.
 * @throws TEAM_NOT_FOUND, MEMBER_NOT_FOUND, INVALID_ARGUMENT (model), TEAMMATE_RUNNING (another
 * recorded `mailroom agent` process of this teammate may still run, or another reader — an MCP
 * server, a `mailroom run` — holds the member's reader claim: two runtimes on one inbox would both
 * answer)
 */
export async function runAgentProcess(options: AgentProcessOptions): Promise<TeammateExit> {
  const store = options.root;
  const member = requireMember(await store.team.readConfig(options.team), options.name, 'teammate');
  // In a signed team a teammate signs everything it sends: refuse to start without its key (core/trust/message-signing.ts).
  await assertCanSign({ root: store, team: options.team }, options.name);
  await claimTeammate(store, options.team, options.name, await ownAgentRecord(store, options.team, options.name, options.model));
  let reader: ReaderLease | undefined;
  let sweeper: Sweeper | undefined;
  let archiver: Archiver | undefined;
  try {
    const spec = options.model ?? member.model;
    const model = await createModel(spec, store.host).catch((err: unknown) => {
      if (!isMailroomError(err, 'INVALID_ARGUMENT') || options.model) throw err;
      // Not "pass --model": whoever spawned the member did; say where this spec came from and what runs it with another.
      throw new MailroomError('INVALID_ARGUMENT', `${err.message} (${options.name}'s model "${spec ?? 'worker'}" comes from its "model" in config.json, set by \`team spawn --model\`; \`mailroom agent ${options.name} --model kind:name\` runs it with another.)`, { cause: err, details: err.details });
    });
    const log = (line: string) => options.out(`${new Date().toISOString()} ${options.name}: ${line}\n`);
    reader = await ReaderLease.take(store, options.team, options.name, 'agent', { log });
    log(`started (pid ${process.pid}, model ${model.id}, team ${options.team})`);
    // Any live runtime takes back the tasks of teammates that died (docs/runtime.md "Dead members").
    const lease = reader;
    sweeper = startSweeper({ root: store, team: options.team, by: options.name, log, presence: lease });
    // …and archives the team's large inboxes beside the sends (core/messages/inbox-archiver.ts).
    archiver = startArchiver({ root: store, team: options.team, log });
    for (const reaped of await reapOrphanCommands(store, options.team)) log(describeReap(reaped));
    const exit = await runTeammate({ root: store, team: options.team, name: options.name, model, signal: options.signal, pollMs: options.pollMs, log, reader, transcript: model.id !== 'worker', ...(options.idleNotifications ? { idleNotifications: options.idleNotifications } : {}) });
    log(`stopped: ${exit.reason}`);
    return exit;
  } finally {
    sweeper?.close();
    archiver?.close();
    await reader?.release();
    await forgetOwnRecord(options, store);
  }
}

async function forgetOwnRecord(o: AgentProcessOptions, store: Stores): Promise<void> {
  const record = await store.host.readProcessRecord(o.team, o.name).catch(() => undefined);
  if (record?.pid === process.pid) await store.host.deleteProcessRecord(o.team, o.name).catch(() => undefined);
}
