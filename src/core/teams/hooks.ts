/**
 * Running a team's hooks (TeammateIdle, TaskCreated, TaskCompleted) with Claude Code's semantics:
 * each command hook of the event runs with `sh -c`, the event's JSON on stdin, in the caller's
 * working directory. Exit 0: go ahead (stdout JSON `{"continue": false, "stopReason": …}` stops the
 * teammate); exit 2: block, stderr is the feedback for the teammate; any other exit: a non-blocking
 * error, reported. A hook still running after its `timeout` (s) is killed (its process group) and
 * reported; it does not block. The hooks file is read from this machine's host store.
 */
import { spawn } from 'node:child_process';
import { MailroomError } from '../../errors.js';
import { DEFAULT_HOOK_TIMEOUT_S, HooksFileSchema, type CommandHook, type HookEvent } from '../../protocol/hooks.js';
import { hostOf, type TeamOptions } from '../context.js';
import { journalled } from '../live/journal-refusals.js';

/** What the hooks of one event decided. */
export type HookOutcome =
  | { kind: 'proceed' }
  /** A hook exited 2: `feedback` is its stderr. */
  | { kind: 'block'; command: string; feedback: string }
  /** A hook answered `{"continue": false}`: the teammate stops; `reason` is its `stopReason`. */
  | { kind: 'stop'; command: string; reason: string };

/** Input of {@link runHooks}. */
export interface RunHooksOptions extends TeamOptions {
  event: HookEvent;
  /** The event's fields (Claude Code's names: `teammate_name`, `task_id`, …); `hook_event_name`, `team_name`, `cwd` are added. */
  input: Record<string, unknown>;
  /** Working directory of the hook (default: this process's). */
  cwd?: string | undefined;
  /** Receives one line per problem (timeout, failure); default: stderr. */
  report?: ((line: string) => void) | undefined;
}

/**
 * Runs the event's hooks in order; the first that blocks or stops decides.
 * @throws INVALID_ARGUMENT when the hooks file is not valid JSON or not a hooks file (naming it)
 */
export async function runHooks(options: RunHooksOptions): Promise<HookOutcome> {
  const hooks = await hooksOf(options, options.event);
  if (hooks.length === 0) return { kind: 'proceed' };
  const cwd = options.cwd ?? process.cwd();
  const stdin = JSON.stringify({ session_id: `mailroom:${options.team}`, transcript_path: '', cwd, hook_event_name: options.event, team_name: options.team, ...options.input });
  const report = options.report ?? ((line: string) => process.stderr.write(`mailroom: warning: ${line}\n`));
  for (const hook of hooks) {
    const r = await runOne(hook, stdin, cwd);
    if (r.timedOut) {
      report(`${options.event} hook "${hook.command}" did not finish within ${timeoutS(hook)} s: killed, and ignored`);
      continue;
    }
    if (r.code === 2) return { kind: 'block', command: hook.command, feedback: r.stderr.trim() || `${options.event} hook "${hook.command}" blocked it (exit 2).` };
    if (r.code !== 0) {
      report(`${options.event} hook "${hook.command}" failed (${r.code === null ? r.error ?? 'killed' : `exit ${r.code}`})${r.stderr.trim() ? `: ${r.stderr.trim().split('\n').pop()}` : ''}; ignored`);
      continue;
    }
    const out = decision(r.stdout);
    if (out?.continue === false) return { kind: 'stop', command: hook.command, reason: typeof out.stopReason === 'string' ? out.stopReason : `${options.event} hook "${hook.command}" stopped the teammate.` };
  }
  return { kind: 'proceed' };
}

/**
 * Runs the hooks and turns a block or a stop into a refusal: NOT_PERMITTED naming rule
 * `hook:<event>`, its message the hook's feedback; `details.stop` set for a stop.
 */
export async function requireHooksPass(options: RunHooksOptions, what: string): Promise<void> {
  const outcome = await runHooks(options);
  if (outcome.kind === 'proceed') return;
  const rule = `hook:${options.event}`;
  const why = outcome.kind === 'block' ? outcome.feedback : outcome.reason;
  const err = new MailroomError('NOT_PERMITTED', `The ${options.event} hook refused ${what}: ${why} (rule: ${rule})`, {
    details: { rule, hook: outcome.command, ...(outcome.kind === 'stop' ? { stop: true, stopReason: outcome.reason } : { feedback: outcome.feedback }) },
  });
  const actor = typeof options.input.teammate_name === 'string' ? options.input.teammate_name : undefined;
  const target = typeof options.input.task_id === 'string' ? `#${options.input.task_id}` : undefined;
  throw await journalled(options, actor, options.event === 'TaskCreated' ? 'task.create' : 'task.complete', err, { target });
}

async function hooksOf(options: TeamOptions, event: HookEvent): Promise<CommandHook[]> {
  const file = await hostOf(options).readHooksFile(options.team);
  if (!file) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(file.text);
  } catch (err) {
    throw new MailroomError('INVALID_ARGUMENT', `The hooks file ${file.path} is not valid JSON (${(err as Error).message}): fix it or move it away.`, { details: { path: file.path } });
  }
  const parsed = HooksFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MailroomError('INVALID_ARGUMENT', `The hooks file ${file.path} is not a hooks file: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}. See docs/approvals.md "Hooks".`, { details: { path: file.path } });
  }
  return (parsed.data.hooks[event] ?? []).flatMap((g) => g.hooks);
}

const timeoutS = (hook: CommandHook) => hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S;

interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  error?: string;
}

function runOne(hook: CommandHook, stdin: string, cwd: string): Promise<HookRun> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', hook.command], { cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutS(hook) * 1000);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr, timedOut, error: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

function decision(stdout: string): { continue?: unknown; stopReason?: unknown } | undefined {
  const text = stdout.trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null ? (v as { continue?: unknown; stopReason?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}
