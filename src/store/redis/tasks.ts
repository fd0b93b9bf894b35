/**
 * Tasks on Redis. Status, owner, blocks and blockedBy live in hash fields that the scripts reason
 * about: create (id from INCR), claim, link (cycle check), unlink, delete and unassign are pure
 * scripts. patchTask is compare-and-set for the task's document (subject, description,
 * activeForm, metadata are changed here with the domain's rules) while its script checks and applies
 * status and owner itself (blocked rule, `expect`, the actor becoming the owner).
 */
import { checkIdempotencyKey } from '../../domain/idempotency-key.js';
import { randomUUID } from '../../protocol/random.js';
import { MailroomError } from '../../errors.js';
import { TaskSchema, canonicalTask, type Task, type TaskStatus } from '../../protocol/task.js';
import { assertMetadataDepth } from '../../domain/task-board.js';
import { applyTaskChange, draftTask } from '../../domain/task-patch.js';
import type { ClaimRequest, CreateTaskOptions, CreatedTask, OpContext, PatchedTask, PutTaskOptions, TaskDraft, TaskEdge, TaskPatch, Transition, UnassignOptions } from '../team-store.js';
import { assembleTask, splitFence, taskDocTail } from './codec.js';
import { envOf, retryUnavailable, runOnce, runTeamScript, untilSet, type RedisContext } from './context.js';
import { AUTO_KEY_TTL_MS, IDEMPOTENCY_TTL_MS } from './inboxes.js';
import { refusalError } from './reply.js';

const TASK_ID = /^[1-9][0-9]*$/;

/** Rows of read-tasks.lua: the high-water mark, then tuples with their document version. */
async function readRows(rc: RedisContext, team: string, id: string): Promise<{ hwm: string; rows: unknown[][] }> {
  const value = (await runOnce(rc, 'read-tasks', team, [id])).value as unknown[];
  return { hwm: String(value[0]), rows: value.slice(1) as unknown[][] };
}

function valid(task: Task): boolean {
  return TaskSchema.safeParse(task).success;
}

/** Valid tasks in numeric id order. */
export async function listTasks(rc: RedisContext, team: string): Promise<Task[]> {
  return (await readRows(rc, team, '')).rows.map(assembleTask).filter(valid);
}

/** One task, undefined when missing (or invalid, unless strict). @throws FILE_CORRUPT (strict, invalid) */
export async function readTask(rc: RedisContext, team: string, id: string, options: { strict?: boolean } = {}): Promise<Task | undefined> {
  if (!TASK_ID.test(id)) return undefined;
  const row = (await readRows(rc, team, id)).rows[0];
  if (!row) return undefined;
  const task = assembleTask(row);
  if (valid(task)) return task;
  if (options.strict) throw new MailroomError('FILE_CORRUPT', `Task #${id} of team "${team}" in the Redis store at ${rc.location} does not match the task format.`, { details: { team, id } });
  return undefined;
}

/** The highest id ever used, exact. */
export async function readHighWatermark(rc: RedisContext, team: string): Promise<string> {
  return (await readRows(rc, team, '0')).hwm;
}

/** Creates a task with the next id. @throws TASK_NOT_FOUND (a blocker), INVALID_ARGUMENT (metadata too deep) */
export async function createTask(rc: RedisContext, team: string, draft: TaskDraft, options: CreateTaskOptions = {}): Promise<Transition<CreatedTask>> {
  assertMetadataDepth(draft.metadata);
  checkIdempotencyKey(options.idempotencyKey);
  const task = draftTask('1', draft);
  const blockedBy = task.blockedBy;
  const own = options.idempotencyKey !== undefined;
  const key = options.idempotencyKey ?? `auto:${randomUUID()}`;
  const args = [envOf(team, options), key, String(own ? IDEMPOTENCY_TTL_MS : AUTO_KEY_TTL_MS), taskDocTail(task), draft.owner ?? '', JSON.stringify(blockedBy), task.metadata?._internal === true ? '1' : '0'];
  const out = await retryUnavailable(() => runOnce(rc, 'create-task', team, args));
  const [state, payload] = out.value as [string, unknown];
  if (state === 'fresh') return { value: { task: assembleTask(payload as unknown[]), replayed: false }, events: out.events };
  const [id, doc, status, owner, hasOwner, blocks, linked] = JSON.parse(String(payload)) as string[];
  return { value: { task: assembleTask([id, doc, status, hasOwner === '1' ? owner : null, blocks, linked]), replayed: own }, events: [] };
}

/** Claims a task: exactly one winner. */
export async function claimTask(rc: RedisContext, team: string, request: ClaimRequest, ctx?: OpContext): Promise<Transition<Task | undefined>> {
  const args = [envOf(team, ctx), request.claimant, request.id ?? '', request.preferAssigned ? '1' : '0', request.busyCheck ? '1' : '0'];
  const out = await runOnce(rc, 'claim-task', team, args, { who: request.claimant, claim: true });
  return { value: out.value === null ? undefined : assembleTask(out.value as unknown[]), events: out.events };
}

/** Changes a task. @throws TASK_NOT_FOUND, TASK_BLOCKED, TASK_CONFLICT, INVALID_ARGUMENT (metadata too deep) */
export async function patchTask(rc: RedisContext, team: string, id: string, patch: TaskPatch, ctx?: OpContext): Promise<Transition<PatchedTask>> {
  assertMetadataDepth(patch.metadata);
  return untilSet(`patchTask #${id}`, async () => {
    const row = TASK_ID.test(id) ? (await readRows(rc, team, id)).rows[0] : undefined;
    if (!row) throw refusalError({ code: 'TASK_NOT_FOUND', details: [id] }, { team, location: rc.location });
    const doc = patchDocument(team, String(row[1]), patch);
    const args = [envOf(team, ctx), id, doc.changed.length > 0 ? String(row[7]) : '', doc.json, doc.internal ? '1' : '0', doc.changed.join(',')];
    args.push(...ownerArgs(patch.owner), patch.status ?? '', patch.expect?.status ?? '', ...expectOwnerArgs(patch.expect), ctx?.actor ?? '', patch.fencingToken === undefined ? '' : String(patch.fencingToken));
    const out = await runTeamScript(rc, 'patch-task', team, args, { who: ctx?.actor });
    // (TASK_FENCED is refused by the script itself: the check and the write are one step.)
    if (out === 'retry') return out;
    const [before, after] = out.value as [unknown[], unknown[]];
    return { value: { task: assembleTask(after), previous: assembleTask(before) }, events: out.events };
  });
}

function ownerArgs(owner: string | null | undefined): [string, string] {
  if (owner === undefined) return ['keep', ''];
  if (owner === null || owner === '') return ['clear', ''];
  return ['set', owner];
}

function expectOwnerArgs(expect: TaskPatch['expect']): [string, string] {
  if (!expect || !('owner' in expect) || expect.owner === undefined) return ['any', ''];
  if (expect.owner === null || expect.owner === '') return ['none', ''];
  return ['value', expect.owner];
}

/**
 * The document after the patch's document fields (subject, description, activeForm, metadata:
 * the domain's task change, which status and owner are left out of: the script decides those),
 * and which of them changed.
 */
function patchDocument(team: string, json: string, patch: TaskPatch): { json: string; changed: string[]; internal: boolean } {
  const doc = JSON.parse(json) as Task;
  const keys = Object.keys(doc);
  const change = { subject: patch.subject, description: patch.description, activeForm: patch.activeForm, metadata: patch.metadata };
  const changed = applyTaskChange(team, doc, change, undefined, new Map(), 0); // no owner here: the script issues the token
  const out = canonicalTask(doc, keys);
  return { json: JSON.stringify(out), changed, internal: out.metadata?._internal === true };
}

/** Adds dependencies; a cycle is refused. */
export async function linkTasks(rc: RedisContext, team: string, edges: readonly TaskEdge[], ctx?: OpContext): Promise<Transition<Task[]>> {
  return edgeScript(rc, 'link-tasks', team, edges, ctx);
}

/** Removes dependencies. */
export async function unlinkTasks(rc: RedisContext, team: string, edges: readonly TaskEdge[], ctx?: OpContext): Promise<Transition<Task[]>> {
  return edgeScript(rc, 'unlink-tasks', team, edges, ctx);
}

async function edgeScript(rc: RedisContext, name: 'link-tasks' | 'unlink-tasks', team: string, edges: readonly TaskEdge[], ctx?: OpContext): Promise<Transition<Task[]>> {
  if (edges.length === 0) return { value: [], events: [] };
  const out = await runOnce(rc, name, team, [envOf(team, ctx), String(edges.length), ...edges.flatMap((e) => [e.blocked, e.blocker])]);
  return { value: (out.value as unknown[][]).map(assembleTask), events: out.events };
}

/** Deletes a task and strips its links. */
export async function deleteTask(rc: RedisContext, team: string, id: string, ctx?: OpContext): Promise<Transition<Task>> {
  const out = await runOnce(rc, 'delete-task', team, [envOf(team, ctx), id]);
  return { value: assembleTask(out.value as unknown[]), events: out.events };
}

/** Writes a task as it is under its id (a mirror: the bridge). @throws TEAM_NOT_FOUND, INVALID_ARGUMENT */
export async function putTask(rc: RedisContext, team: string, task: Task, ctx?: PutTaskOptions): Promise<Transition<Task>> {
  const parsed = TaskSchema.safeParse(task);
  if (!parsed.success || !TASK_ID.test(task.id)) throw new MailroomError('INVALID_ARGUMENT', `Task ${JSON.stringify(task.id)} cannot be written to team "${team}": it is not a valid task (${parsed.success ? 'its id is not a task id' : parsed.error.message}).`);
  const whole = canonicalTask(structuredClone(task));
  const { doc, fence } = splitFence(whole);
  const args = [envOf(team, ctx), whole.id, JSON.stringify(doc), whole.status, whole.owner ?? '', JSON.stringify(whole.blocks), JSON.stringify(whole.blockedBy), whole.metadata?._internal === true ? '1' : '0', fence];
  const expect = ctx?.expect;
  if (expect === null) args.push('absent');
  else if (expect) {
    const e = splitFence(canonicalTask(structuredClone(expect)));
    args.push('match', JSON.stringify(e.doc), e.doc.status, e.doc.owner ?? '', JSON.stringify(e.doc.blocks), JSON.stringify(e.doc.blockedBy), e.fence);
  }
  const out = await runOnce(rc, 'put-task', team, args);
  return { value: assembleTask(out.value as unknown[]), events: out.events };
}

/** Puts an owner's tasks back to pending. */
export async function unassignTasks(rc: RedisContext, team: string, owner: string, options: UnassignOptions = {}): Promise<Transition<Task[]>> {
  const silent = options.ifSilent ? [options.ifSilent.member, String(options.ifSilent.lastBeatAt)] : ['', ''];
  const out = await runOnce(rc, 'unassign-tasks', team, [envOf(team, options), owner, (options.statuses ?? []).join(','), ...silent]);
  return { value: (out.value as unknown[][]).map(assembleTask), events: out.events };
}
