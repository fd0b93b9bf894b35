/**
 * The team-store contract suite (issue 15 item 7): every TeamStore operation exercised through the
 * interface alone, so that every backend runs the same suite unchanged. Backend-agnostic: no paths,
 * no file system. A backend's test file calls {@link teamStoreContract} with a factory that opens a
 * fresh, empty store; cross-process tests start `child.mjs`, which opens the same store from the
 * store's own `selection` (through `openStores` of the built package: run `npm run build` first,
 * as `npm test` does).
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MailroomError } from '../../src/errors.js';
import { EVENT_VERSION, type TeamEventRecord } from '../../src/protocol/events.js';
import type { Member, TeamConfig } from '../../src/protocol/config.js';
import { makeInboxEntry, type InboxEntry } from '../../src/protocol/inbox.js';
import type { AppendResult, StoreHint, TeamStore, Transition } from '../../src/store/team-store.js';
import { startChild, type Child } from '../helpers/child.js';
import { readTeamImage } from '../../src/core/teams/store-copy.js';

/** What a backend's test file supplies. */
export interface ContractBackend {
  /** Opens a fresh, empty store (nothing shared with any other call). */
  open(): Promise<TeamStore>;
  /** Called after each test with the store `open` returned (after `store.close()`). */
  dispose?(store: TeamStore): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));
const T = 'crew';

/** A config with the lead as the only member, as `createTeam` use cases build it. */
export function teamConfig(name: string, now = Date.now()): TeamConfig {
  return {
    name,
    createdAt: now,
    leadAgentId: `team-lead@${name}`,
    leadSessionId: randomUUID(),
    members: [{ agentId: `team-lead@${name}`, name: 'team-lead', agentType: 'team-lead', model: 'unknown', joinedAt: now, tmuxPaneId: '', cwd: '/', subscriptions: [] }],
  };
}

/** A teammate record as `spawnMember` builds it (without a color: the store may assign one). */
export function teammate(team: string, name: string, extra: Partial<Member> = {}): Member {
  return { agentId: `${name}@${team}`, name, joinedAt: Date.now(), tmuxPaneId: 'in-process', subscriptions: [], model: 'worker', backendType: 'in-process', ...extra };
}

/** An unread entry from `from`. */
export function entry(from: string, text: string, timestamp = new Date().toISOString()): InboxEntry {
  return makeInboxEntry({ from, text, timestamp, msgId: randomUUID() });
}

/** The MailroomError `promise` rejects with (fails the test when it resolves or throws anything else). */
export async function refusal(promise: Promise<unknown>): Promise<MailroomError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(MailroomError);
    return err as MailroomError;
  }
  throw new Error('expected a MailroomError');
}

/** Runs the whole suite against `backend`. */
export function teamStoreContract(name: string, backend: ContractBackend): void {
  describe(`TeamStore contract: ${name}`, () => {
    let store: TeamStore;
    const children: Child[] = [];
    beforeEach(async () => {
      store = await backend.open();
    });
    afterEach(async () => {
      for (const c of children.splice(0)) c.proc.kill('SIGKILL');
      await store.close();
      await backend.dispose?.(store);
    });

    /** The events of `t` are exactly what the journal got in the same step. */
    async function journalled<V>(team: string, run: () => Promise<Transition<V>>): Promise<Transition<V>> {
      const before = await store.readEvents(team);
      const t = await run();
      const after = await store.readEvents(team, { since: before.cursor });
      expect(after.events).toEqual(t.events);
      for (const e of t.events) expect(e).toMatchObject({ v: EVENT_VERSION, team, source: 'mailroom' });
      return t;
    }

    async function withTeam(...members: string[]): Promise<void> {
      await store.createTeam(teamConfig(T));
      for (const m of members) await store.addMember(T, teammate(T, m), { assignColor: true });
    }

    /** Starts `n` children running `op` on this store; resolves with their results once all ran. */
    async function inChildren<R>(n: number, op: (i: number) => Record<string, unknown>): Promise<R[]> {
      const started = Array.from({ length: n }, (_, i) => startChild(CHILD, [JSON.stringify({ selection: store.selection, team: T, ...op(i) })]));
      children.push(...started);
      await Promise.all(started.map((c) => c.waitForLine('ready')));
      for (const c of started) c.send('go');
      const codes = await Promise.all(started.map((c) => c.exited));
      started.forEach((c, i) => expect(codes[i], `child ${i}: ${c.stderr()}`).toBe(0));
      return started.map((c) => JSON.parse(c.stdout().trim().split('\n').at(-1)!) as R);
    }

    describe('teams', () => {
      it('creates a team, lists and reads it; journals team created and the lead joining', async () => {
        const created = await journalled(T, () => store.createTeam(teamConfig(T), { actor: 'user' }));
        expect(created.value.name).toBe(T);
        expect(created.events.map((e) => `${e.kind}:${'action' in e ? e.action : ''}`)).toEqual(['team:created', 'member:joined']);
        expect(created.events[0]).toMatchObject({ actor: 'user' });
        expect((await store.listTeams()).map((t) => t.name)).toEqual([T]);
        expect(await store.readConfig(T)).toEqual(created.value);
      });

      it('refuses a second team of the same name (TEAM_EXISTS) and an unknown one (TEAM_NOT_FOUND)', async () => {
        await store.createTeam(teamConfig(T));
        expect((await refusal(store.createTeam(teamConfig(T)))).code).toBe('TEAM_EXISTS');
        expect((await refusal(store.readConfig('nobody'))).code).toBe('TEAM_NOT_FOUND');
        // One wording on both backends (src/domain/team-errors.ts); only the store's location differs.
        expect((await refusal(store.createTeam(teamConfig(T)))).message).toMatch(new RegExp(`^Team "${T}" already exists in .+\\. Pick another name, or delete it first with \`mailroom team delete ${T}\`\\.$`));
        expect((await refusal(store.readConfig('nobody'))).message).toMatch(/^Team "nobody" not found in .+ Create it with `mailroom team create nobody`\.$/);
      });

      it('moves a deleted team aside with its inboxes, tasks and journal, and restores it', async () => {
        await withTeam('alice');
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'keep me') }]);
        await store.createTask(T, { subject: 'Keep me', description: '' });
        const deleted = await store.deleteTeam(T);
        expect(deleted.events).toMatchObject([{ kind: 'team', action: 'deleted', v: EVENT_VERSION, source: 'mailroom' }]);
        expect((await store.readEvents(T)).events).toEqual([]);
        expect(await store.listTeams()).toEqual([]);
        expect((await refusal(store.readConfig(T))).code).toBe('TEAM_NOT_FOUND');
        expect(await store.listTasks(T)).toEqual([]);
        expect(await store.readInbox(T, 'alice')).toEqual([]);
        const listed = await store.listDeletedTeams(T);
        expect(listed).toMatchObject([{ team: T, id: deleted.value.id }]);
        expect(typeof listed[0]!.location).toBe('string');

        const restored = await store.restoreTeam(deleted.value.id);
        expect(restored.value.name).toBe(T);
        expect(restored.events).toMatchObject([{ kind: 'team', action: 'restored' }]);
        expect((await store.readInbox(T, 'alice')).map((e) => e.text)).toEqual(['keep me']);
        expect((await store.listTasks(T)).map((t) => t.subject)).toEqual(['Keep me']);
        const history = await store.readEvents(T);
        expect(history.events.map((e) => e.kind)).toContain('message');
        expect(history.events.slice(-2)).toEqual([deleted.events[0], restored.events[0]]);
        expect(await store.listDeletedTeams(T)).toEqual([]);
      });

      it('refuses to restore over a team of the same name, and an unknown id', async () => {
        await store.createTeam(teamConfig(T));
        const { value } = await store.deleteTeam(T);
        await store.createTeam(teamConfig(T));
        expect((await refusal(store.restoreTeam(value.id))).code).toBe('TEAM_EXISTS');
        expect((await refusal(store.restoreTeam('no-such-id'))).code).toBe('TEAM_NOT_FOUND');
        expect((await refusal(store.deleteTeam('nobody'))).code).toBe('TEAM_NOT_FOUND');
      });

      it('reports no removal by another client for a team it holds', async () => {
        await store.createTeam(teamConfig(T));
        expect(await store.teamRemoval(T)).toBeUndefined();
        expect(await store.teamRemoval('nobody')).toBeUndefined();
      });

      it('moves member records aside with a deleted team and back with it; a re-created team has none', async () => {
        await store.createTeam(teamConfig(T));
        await store.addMember(T, teammate(T, 'alice'), { record: { runtime: 'process', prompt: 'Write the parser' } });
        const deleted = await store.deleteTeam(T);
        expect(await store.readMemberRecords(T)).toEqual([]);
        await store.createTeam(teamConfig(T));
        expect(await store.readMemberRecords(T)).toEqual([]);
        await store.deleteTeam(T);
        await store.restoreTeam(deleted.value.id);
        expect((await store.readMemberRecords(T)).map((r) => [r.name, r.runtime, r.prompt])).toEqual([['alice', 'process', 'Write the parser']]);
      });

      it('starts a re-created team with an empty history', async () => {
        await withTeam('alice');
        await store.deleteTeam(T);
        await store.createTeam(teamConfig(T));
        const kinds = (await store.readEvents(T)).events.map((e) => e.kind);
        expect(kinds).toEqual(['team', 'member']);
      });
    });

    describe('bulk import (store copy)', () => {
      /** A team with read, unread and archived entries, linked tasks (one owned) and a member record. */
      async function richTeam(): Promise<void> {
        await store.createTeam(teamConfig(T));
        await store.addMember(T, teammate(T, 'alice'), { assignColor: true, record: { runtime: 'process', prompt: 'Write the parser' } });
        const first = entry('team-lead', 'old news', '2026-01-01T00:00:00.000Z');
        await store.appendMessages(T, [{ to: 'alice', entry: first }, { to: 'alice', entry: entry('team-lead', 'read me', '2026-01-01T00:00:01.000Z') }]);
        await store.markRead(T, 'alice', (await store.readInbox(T, 'alice')).map((e) => e.msg_id ?? ''));
        await store.archiveInbox(T, 'alice');
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'unread one', '2026-01-01T00:00:02.000Z') }, { to: 'team-lead', entry: entry('alice', 'hi lead') }]);
        const a = (await store.createTask(T, { subject: 'A', description: 'first' })).value.task;
        const b = (await store.createTask(T, { subject: 'B', description: 'second', owner: 'alice' })).value.task;
        await store.createTask(T, { subject: 'C', description: 'third' });
        await store.deleteTask(T, '3');
        await store.linkTasks(T, [{ blocked: b.id, blocker: a.id }]);
      }

      it('writes a team whole as read from another store: entries with read state, archive, tasks with ids and links, high-water mark, member records, journal', async () => {
        await richTeam();
        const image = await readTeamImage(store, T);
        expect(image.highWatermark).toBe('3');
        const archivedBefore = (await store.readInboxHistory(T, 'alice')).archived;
        expect(archivedBefore.length).toBeGreaterThan(0);
        await store.deleteTeam(T);
        const imported = await store.importTeam(image, { actor: 'user' });
        expect(imported).toEqual({ value: image.config, events: [] });
        const again = await readTeamImage(store, T);
        expect({ ...again, tasks: sortById(again.tasks), inboxes: sortByName(again.inboxes) }).toEqual({ ...image, tasks: sortById(image.tasks), inboxes: sortByName(image.inboxes) });
        // It goes on as a team: the next task id follows the high-water mark; an append lands after the imported entries.
        expect((await store.createTask(T, { subject: 'D', description: '' })).value.task.id).toBe('4');
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'after import') }]);
        expect((await store.readInbox(T, 'alice')).map((e) => [e.text, e.read === true])).toEqual([
          ['unread one', false],
          ['after import', false],
        ]);
        expect((await store.takeUnread(T, 'alice', { reader: 'r' })).value.entries.map((e) => e.text)).toEqual(['unread one', 'after import']);
      });

      it('refuses a team that exists (TEAM_EXISTS) and a bad image (INVALID_ARGUMENT), writing nothing', async () => {
        await richTeam();
        const image = await readTeamImage(store, T);
        expect((await refusal(store.importTeam(image))).code).toBe('TEAM_EXISTS');
        expect(await readTeamImage(store, T)).toEqual(image);
        const other = { ...image, config: { ...image.config, name: 'other' }, tasks: [...image.tasks, image.tasks[0]!] };
        expect((await refusal(store.importTeam(other))).code).toBe('INVALID_ARGUMENT');
        expect((await refusal(store.readConfig('other'))).code).toBe('TEAM_NOT_FOUND');
        expect((await refusal(store.importTeam({ ...other, tasks: image.tasks, highWatermark: '1' }))).code).toBe('INVALID_ARGUMENT');
        expect((await store.listTeams()).map((t) => t.name)).toEqual([T]);
      });
    });

    describe('roster', () => {
      it('adds members with palette colors by roster position; a name taken in any case is MEMBER_EXISTS', async () => {
        await store.createTeam(teamConfig(T));
        const alice = await journalled(T, () => store.addMember(T, teammate(T, 'alice'), { assignColor: true }));
        expect(alice.value.color).toBe('blue');
        expect(alice.events).toMatchObject([{ kind: 'member', action: 'joined', name: 'alice', agentId: `alice@${T}` }]);
        expect((await store.addMember(T, teammate(T, 'bob'), { assignColor: true })).value.color).toBe('green');
        expect((await store.addMember(T, teammate(T, 'carol', { color: 'pink' }), { assignColor: true })).value.color).toBe('pink');
        expect((await refusal(store.addMember(T, teammate(T, 'Alice')))).code).toBe('MEMBER_EXISTS');
        expect((await refusal(store.addMember(T, teammate(T, 'Alice')))).message).toBe(`Team "${T}" already has a member named "alice". Pick another name, e.g. "Alice-2"; to run the member "alice" again, use \`mailroom agent alice\`.`);
        expect((await refusal(store.addMember('nobody', teammate('nobody', 'x')))).code).toBe('TEAM_NOT_FOUND');
        expect((await store.readConfig(T)).members.map((m) => m.name)).toEqual(['team-lead', 'alice', 'bob', 'carol']);
      });

      it('records a member record in the same step as the member, and removes it with the member', async () => {
        await store.createTeam(teamConfig(T));
        expect(await store.readMemberRecords(T)).toEqual([]);
        const bob = await journalled(T, () => store.addMember(T, teammate(T, 'bob'), { record: { runtime: 'mcp' } }));
        expect(bob.events.map((e) => e.kind)).toEqual(['member']);
        const alice = (await store.addMember(T, teammate(T, 'alice', { joinedAt: 1_767_225_600_000 }), { record: { runtime: 'in-process', prompt: 'Write the parser' } })).value;
        await store.addMember(T, teammate(T, 'carol')); // registered by another client: no record
        expect(await store.readMemberRecords(T)).toEqual([
          { v: 1, team: T, name: 'alice', agentId: alice.agentId, joinedAt: 1_767_225_600_000, runtime: 'in-process', prompt: 'Write the parser' },
          { v: 1, team: T, name: 'bob', agentId: `bob@${T}`, joinedAt: bob.value.joinedAt, runtime: 'mcp' },
        ]);
        expect((await refusal(store.addMember(T, teammate(T, 'Alice'), { record: { runtime: 'process' } }))).code).toBe('MEMBER_EXISTS');
        expect((await store.readMemberRecords(T)).find((r) => r.name === 'alice')?.runtime).toBe('in-process');
        await store.removeMember(T, 'alice');
        expect((await store.readMemberRecords(T)).map((r) => r.name)).toEqual(['bob']);
      });

      it('keeps a signing member\'s identity when it is removed, marked with the store\'s time of removal; a new member of the name replaces it', async () => {
        await store.createTeam(teamConfig(T));
        const identity = { publicKey: 'k'.repeat(43), keyId: '0123456789abcdef', cert: 'c2.x' };
        await store.addMember(T, teammate(T, 'alice', { joinedAt: 5 }), { record: { runtime: 'process', capabilities: ['review'], identity } });
        await store.addMember(T, teammate(T, 'bob'), { record: { runtime: 'mcp' } });
        const before = Date.now();
        await store.removeMember(T, 'alice');
        await store.removeMember(T, 'bob');
        const kept = await store.readMemberRecords(T);
        expect(kept).toEqual([{ v: 1, team: T, name: 'alice', agentId: `alice@${T}`, joinedAt: 5, runtime: 'process', capabilities: ['review'], identity, removedAt: expect.any(Number) }]);
        expect(kept[0]!.removedAt).toBeGreaterThanOrEqual(before - 1_000); // the store's clock (Redis TIME; this machine's on files)
        expect(kept[0]!.removedAt).toBeLessThanOrEqual(Date.now() + 1_000);
        expect((await store.readConfig(T)).members.map((m) => m.name)).toEqual(['team-lead']);
        await store.addMember(T, teammate(T, 'alice', { joinedAt: 6 }), { record: { runtime: 'mcp' } });
        expect((await store.readMemberRecords(T)).map((r) => [r.name, r.joinedAt, r.removedAt])).toEqual([['alice', 6, undefined]]);
      });

      it('a new member of the name carries the revoked keys of the earlier ones (key, joinedAt, removedAt), oldest first, through its own removal', async () => {
        await store.createTeam(teamConfig(T));
        const first = { publicKey: 'a'.repeat(43), keyId: '0000000000000001', cert: 'c2.a' };
        const second = { publicKey: 'b'.repeat(43), keyId: '0000000000000002' };
        await store.addMember(T, teammate(T, 'alice', { joinedAt: 1_767_225_600_001 }), { record: { runtime: 'process', identity: first } });
        await store.removeMember(T, 'alice');
        const firstRemoved = (await store.readMemberRecords(T))[0]!.removedAt!;
        await store.addMember(T, teammate(T, 'alice', { joinedAt: 1_767_225_600_002 }), { record: { runtime: 'process', identity: second } });
        const [again] = await store.readMemberRecords(T);
        expect(again).toEqual({ v: 1, team: T, name: 'alice', agentId: `alice@${T}`, joinedAt: 1_767_225_600_002, runtime: 'process', identity: second, revokedKeys: [{ publicKey: first.publicKey, keyId: first.keyId, joinedAt: 1_767_225_600_001, removedAt: firstRemoved }] });
        await store.removeMember(T, 'alice');
        const secondRemoved = (await store.readMemberRecords(T))[0]!.removedAt!;
        expect((await store.readMemberRecords(T))[0]!.revokedKeys).toHaveLength(1); // kept through the removal
        await store.addMember(T, teammate(T, 'alice', { joinedAt: 1_767_225_600_003 }), { record: { runtime: 'mcp' } });
        expect((await store.readMemberRecords(T))[0]!.revokedKeys).toEqual([
          { publicKey: first.publicKey, keyId: first.keyId, joinedAt: 1_767_225_600_001, removedAt: firstRemoved },
          { publicKey: second.publicKey, keyId: second.keyId, joinedAt: 1_767_225_600_002, removedAt: secondRemoved },
        ]);
        // A name whose earlier member had no identity (an open team) carries nothing.
        await store.addMember(T, teammate(T, 'bob', { joinedAt: 1 }), { record: { runtime: 'process' } });
        await store.removeMember(T, 'bob');
        await store.addMember(T, teammate(T, 'bob', { joinedAt: 2 }), { record: { runtime: 'process' } });
        expect((await store.readMemberRecords(T)).find((r) => r.name === 'bob')).not.toHaveProperty('revokedKeys');
      });

      it('keeps a removed member\'s kept record when a later member of the name without a record of its own (a Claude Code member) is removed', async () => {
        await store.createTeam(teamConfig(T));
        const identity = { publicKey: 'k'.repeat(43), keyId: '0123456789abcdef', cert: 'c2.x' };
        await store.addMember(T, teammate(T, 'alice', { joinedAt: 5 }), { record: { runtime: 'process', identity } });
        await store.removeMember(T, 'alice');
        const kept = await store.readMemberRecords(T);
        await store.addMember(T, teammate(T, 'alice', { joinedAt: 6 })); // registered by Claude Code: no record
        await store.removeMember(T, 'alice');
        expect(await store.readMemberRecords(T)).toEqual(kept); // the revocation is not undone
      });

      it('replaces the record of an earlier member of the name when the name joins again', async () => {
        await store.createTeam(teamConfig(T));
        await store.addMember(T, teammate(T, 'alice', { joinedAt: 1 }), { record: { runtime: 'process' } });
        await store.removeMember(T, 'alice');
        await store.addMember(T, teammate(T, 'alice', { joinedAt: 2 }), { record: { runtime: 'mcp' } });
        expect((await store.readMemberRecords(T)).map((r) => [r.name, r.joinedAt, r.runtime])).toEqual([['alice', 2, 'mcp']]);
      });

      it('retires unread shutdown requests sent to an earlier member of the name', async () => {
        await withTeam('alice');
        const old = entry('team-lead', JSON.stringify({ type: 'shutdown_request', requestId: 'shutdown-1@alice', from: 'team-lead', timestamp: '2020-01-01T00:00:00.000Z' }), '2020-01-01T00:00:00.000Z');
        await store.appendMessages(T, [{ to: 'alice', entry: old }]);
        await store.removeMember(T, 'alice');
        await store.addMember(T, teammate(T, 'alice'), { retireEarlierShutdownRequests: true });
        expect((await store.readInbox(T, 'alice')).map((e) => e.read)).toEqual([true]);
      });

      it('updates a member in place; an unchanged patch writes nothing and journals nothing', async () => {
        await withTeam('alice');
        const changed = await journalled(T, () => store.updateMember(T, 'alice', { isActive: true, model: null }));
        expect(changed.value).toMatchObject({ name: 'alice', isActive: true });
        expect(changed.value.model).toBeUndefined();
        expect(changed.events).toMatchObject([{ kind: 'member', action: 'updated', name: 'alice' }]);
        expect((changed.events[0] as { changed?: string[] }).changed?.sort()).toEqual(['isActive', 'model']);
        const same = await store.updateMember(T, 'alice', { isActive: true });
        expect(same.events).toEqual([]);
        expect((await refusal(store.updateMember(T, 'nobody', { isActive: false }))).code).toBe('MEMBER_NOT_FOUND');
      });

      it('removes a member and unassigns its open tasks in the same step; never the lead', async () => {
        await withTeam('alice');
        const one = (await store.createTask(T, { subject: 'one', description: '' })).value.task;
        const two = (await store.createTask(T, { subject: 'two', description: '' })).value.task;
        await store.claimTask(T, { claimant: 'alice', id: one.id });
        await store.claimTask(T, { claimant: 'alice', id: two.id });
        await store.patchTask(T, two.id, { status: 'completed' });
        const removed = await journalled(T, () => store.removeMember(T, `alice@${T}`));
        expect(removed.value?.member.name).toBe('alice');
        expect(removed.value?.unassigned.map((t) => t.id)).toEqual([one.id]);
        expect(removed.events.map((e) => e.kind)).toEqual(['member', 'task']);
        expect(await store.readTask(T, one.id)).toMatchObject({ status: 'pending' });
        expect((await store.readTask(T, one.id))?.owner).toBeUndefined();
        expect(await store.readTask(T, two.id)).toMatchObject({ status: 'completed', owner: 'alice' });
        expect((await store.removeMember(T, 'alice')).value).toBeUndefined();
        expect((await store.removeMember(T, 'team-lead')).value).toBeUndefined();
        expect((await store.readConfig(T)).members.map((m) => m.name)).toEqual(['team-lead']);
      });
    });

    describe('inboxes', () => {
      it('appends, reads in order and journals each message as stored', async () => {
        await withTeam('alice', 'bob');
        const t = await journalled(T, () => store.appendMessages(T, [{ to: 'alice', entry: entry('bob', 'one') }, { to: 'bob', entry: entry('alice', 'two') }], { actor: 'bob' }));
        expect(t.value.replayed).toBe(false);
        expect(t.value.messages.map((m) => `${m.to}:${m.entry.text}`)).toEqual(['alice:one', 'bob:two']);
        expect(t.events).toMatchObject([{ kind: 'message', to: 'alice', actor: 'bob', entry: { text: 'one' } }, { kind: 'message', to: 'bob', entry: { text: 'two' } }]);
        expect(await store.readInbox(T, 'alice')).toEqual([t.value.messages[0]!.entry]);
        expect((await store.listInboxes(T)).sort((a, b) => (a.name < b.name ? -1 : 1))).toEqual([
          { name: 'alice', member: true },
          { name: 'bob', member: true },
        ]);
      });

      describe('an append under the sender\'s view stamp (AppendOptions.expectViewStamp)', () => {
        const changes: Record<string, (s: TeamStore) => Promise<unknown>> = {
          'the policy changed': (s) => s.updateSettings(T, { policy: { message: { bob: ['team-lead'] } } }),
          'a member removed': (s) => s.removeMember(T, 'carol'),
          'a member updated': (s) => s.updateMember(T, 'bob', { model: 'other' }),
        };
        for (const [what, change] of Object.entries(changes)) {
          it(`${what} after the stamp was read: stores and journals nothing (VIEW_MOVED); under the new stamp it lands`, async () => {
            await withTeam('alice', 'bob', 'carol');
            expect(typeof store.viewStamp, 'both backends keep a view stamp for sends').toBe('function');
            const old = await store.viewStamp!(T);
            await change(store);
            const before = await store.readEvents(T);
            const err = await refusal(store.appendMessages(T, [{ to: 'alice', entry: entry('bob', 'stale') }], { actor: 'bob', expectViewStamp: old }));
            expect(err.code).toBe('VIEW_MOVED');
            expect(await store.readInbox(T, 'alice')).toEqual([]);
            expect((await store.readEvents(T, { since: before.cursor })).events).toEqual([]);
            const now = await store.viewStamp!(T);
            expect(now).not.toBe(old);
            await store.appendMessages(T, [{ to: 'alice', entry: entry('bob', 'fresh') }], { actor: 'bob', expectViewStamp: now });
            expect((await store.readInbox(T, 'alice')).map((e) => e.text)).toEqual(['fresh']);
          });
        }

        it('a member\'s presence (isActive alone) changed after the stamp was read: the append lands (presence is no part of a sender\'s view)', async () => {
          // CI failure, session 17: on files every turn of a teammate rewrote config.json (isActive
          // true/false), the stamp moved with it, and ten asks in flight were refused VIEW_MOVED five
          // times in a row (test/unit/runtime/ask-archive.test.ts). Redis never bumped its stamp for it.
          await withTeam('alice', 'bob');
          const old = await store.viewStamp!(T);
          for (const isActive of [true, false, true]) await store.updateMember(T, 'alice', { isActive });
          await store.appendMessages(T, [{ to: 'alice', entry: entry('bob', 'kept') }], { actor: 'bob', expectViewStamp: old });
          expect((await store.readInbox(T, 'alice')).map((e) => e.text)).toEqual(['kept']);
          await store.updateMember(T, 'alice', { isActive: false, model: 'other' });
          const err = await refusal(store.appendMessages(T, [{ to: 'alice', entry: entry('bob', 'stale') }], { actor: 'bob', expectViewStamp: old }));
          expect(err.code).toBe('VIEW_MOVED');
        });

        it('concurrent appends under an old and the current stamp: each answered by its own stamp', async () => {
          await withTeam('alice', 'bob');
          const old = await store.viewStamp!(T);
          await store.updateSettings(T, { policy: { message: { bob: ['*'] } } });
          const now = await store.viewStamp!(T);
          const calls = Array.from({ length: 10 }, (_, i) => store.appendMessages(T, [{ to: 'alice', entry: entry(i % 2 ? 'bob' : 'team-lead', `m${i}`) }], { actor: i % 2 ? 'bob' : 'team-lead', expectViewStamp: i % 3 === 0 ? old : now }));
          const results = await Promise.allSettled(calls);
          const landed = results.flatMap((r, i) => (r.status === 'fulfilled' ? [`m${i}`] : []));
          results.forEach((r, i) => (i % 3 === 0 ? expect(r).toMatchObject({ status: 'rejected', reason: { code: 'VIEW_MOVED' } }) : expect(r.status).toBe('fulfilled')));
          const stored = (await store.readInbox(T, 'alice')).map((e) => e.text);
          expect([...stored].sort()).toEqual([...landed].sort());
        });
      });

      it('checks every recipient before writing anything (MEMBER_NOT_FOUND, no inbox created)', async () => {
        await withTeam('alice');
        const err = await refusal(store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'a') }, { to: 'nobody', entry: entry('team-lead', 'b') }]));
        expect(err.code).toBe('MEMBER_NOT_FOUND');
        expect(await store.readInbox(T, 'alice')).toEqual([]);
        expect(await store.listInboxes(T)).toEqual([]);
        expect((await store.readEvents(T)).events.filter((e) => e.kind === 'message')).toEqual([]);
      });

      it('answers each of many concurrent appends with its own messages and events; one refused append fails alone', async () => {
        await withTeam('alice', 'bob');
        const calls = Array.from({ length: 12 }, (_, i) =>
          store.appendMessages(T, i === 5 ? [{ to: 'alice', entry: entry('bob', 'bad-a') }, { to: 'nobody', entry: entry('bob', 'bad-b') }] : [{ to: i % 2 ? 'alice' : 'bob', entry: entry('team-lead', `m${i}`) }, { to: 'alice', entry: entry('team-lead', `n${i}`) }]),
        );
        const results = await Promise.allSettled(calls);
        results.forEach((r, i) => {
          if (i === 5) {
            expect(r.status).toBe('rejected');
            expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'MEMBER_NOT_FOUND' });
            return;
          }
          expect(r.status).toBe('fulfilled');
          const t = (r as PromiseFulfilledResult<Transition<AppendResult>>).value;
          expect(t.value.messages.map((m) => `${m.to}:${m.entry.text}`)).toEqual([`${i % 2 ? 'alice' : 'bob'}:m${i}`, `alice:n${i}`]);
          expect(t.events.map((e) => (e.kind === 'message' ? `${e.to}:${e.entry.text}` : e.kind))).toEqual([`${i % 2 ? 'alice' : 'bob'}:m${i}`, `alice:n${i}`]);
        });
        const texts = [...(await store.readInbox(T, 'alice')), ...(await store.readInbox(T, 'bob'))].map((e) => e.text);
        expect(texts.sort()).toEqual(Array.from({ length: 12 }, (_, i) => (i === 5 ? [] : [`m${i}`, `n${i}`])).flat().sort());
      });

      it('keeps (from, timestamp, text) unique and timestamps non-decreasing in inbox order', async () => {
        await withTeam('alice');
        const at = '2026-03-01T12:00:00.000Z';
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'same', at) }]);
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'same', at) }, { to: 'alice', entry: entry('team-lead', 'earlier', '2026-03-01T11:00:00.000Z') }]);
        const stamps = (await store.readInbox(T, 'alice')).map((e) => e.timestamp);
        expect(stamps).toEqual([at, '2026-03-01T12:00:00.001Z', '2026-03-01T12:00:00.001Z']);
        const triples = (await store.readInbox(T, 'alice')).map((e) => `${e.from} ${e.timestamp} ${e.text}`);
        expect(new Set(triples).size).toBe(triples.length);
      });

      it('replays an append whose idempotency key was used: nothing written, the first messages returned', async () => {
        await withTeam('alice');
        const first = await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'once') }], { idempotencyKey: 'k-1' });
        const again = await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'once') }], { idempotencyKey: 'k-1' });
        expect(again.value).toEqual({ replayed: true, messages: first.value.messages });
        expect(again.events).toEqual([]);
        const racing = await Promise.all([1, 2, 3].map(() => store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'race') }], { idempotencyKey: 'k-2' })));
        expect(racing.filter((r) => !r.value.replayed)).toHaveLength(1);
        expect((await store.readInbox(T, 'alice')).map((e) => e.text)).toEqual(['once', 'race']);
      });

      it('replays a keyed append whose recipient was removed since: the first outcome, not MEMBER_NOT_FOUND', async () => {
        // Break test, session 16: the first try stored the message (its reply lost), the recipient
        // left, the retry with the same key was refused MEMBER_NOT_FOUND though the message was stored.
        await withTeam('alice', 'bob');
        const first = await store.appendMessages(T, [{ to: 'bob', entry: entry('team-lead', 'before bob left') }], { idempotencyKey: 'k-left' });
        expect(await store.readAppended(T, 'k-left')).toEqual(first.value.messages);
        await store.removeMember(T, 'bob');
        const again = await store.appendMessages(T, [{ to: 'bob', entry: entry('team-lead', 'before bob left') }], { idempotencyKey: 'k-left' });
        expect(again.value).toEqual({ replayed: true, messages: first.value.messages });
        expect(again.events).toEqual([]);
        expect(await store.readAppended(T, 'k-left')).toEqual(first.value.messages);
        // A key never used, or a key whose first call was refused, is not a replay: the refusal stands.
        expect(await store.readAppended(T, 'k-never')).toBeUndefined();
        expect((await refusal(store.appendMessages(T, [{ to: 'bob', entry: entry('team-lead', 'after') }], { idempotencyKey: 'k-after' }))).code).toBe('MEMBER_NOT_FOUND');
        expect(await store.readAppended(T, 'k-after')).toBeUndefined();
      });

      it('replays a keyed broadcast retried after a member left (fewer recipients): the first outcome, no copy twice', async () => {
        // Break test, session 16: the retry of a broadcast is built from the roster again, so it has
        // one recipient fewer; the files store appended again (ids derived from shifted positions)
        // and alice and carol got the message twice, where Redis replayed the first call.
        await withTeam('alice', 'bob', 'carol');
        const to = (names: string[]) => names.map((n) => ({ to: n, entry: entry('team-lead', 'to all') }));
        const first = await store.appendMessages(T, to(['alice', 'bob', 'carol']), { idempotencyKey: 'k-bcast' });
        await store.removeMember(T, 'bob');
        const again = await store.appendMessages(T, to(['alice', 'carol']), { idempotencyKey: 'k-bcast' });
        expect(again.value).toEqual({ replayed: true, messages: first.value.messages });
        expect(again.events).toEqual([]);
        for (const n of ['alice', 'carol']) expect((await store.readInbox(T, n)).map((e) => e.text), n).toEqual(['to all']);
      });

      it('completes a keyed broadcast\'s record once: twins racing with different recipient lists all answer, and keep answering, one list', async () => {
        // Break test, session 18: two twins of one keyed broadcast, one built before a member joined
        // and one after (a shorter and a longer recipient list). On files the record was marked
        // complete by the shorter twin while the longer one still wrote its last copy: a retry in
        // between replayed the shorter list, a later one the longer. A key must stand for one list,
        // named in full by the record the moment it is complete, and every copy under the key must be
        // one it names.
        await withTeam('alice', 'bob', 'carol');
        const to = (names: string[], text: string) => names.map((n) => ({ to: n, entry: entry('team-lead', text) }));
        const pair = (m: { to: string }) => m.to;
        for (let round = 0; round < 12; round++) {
          const joiner = `dan${round}`;
          await store.addMember(T, teammate(T, joiner));
          const text = `round ${round}`;
          const key = `k-twins-${round}`;
          const short = ['alice', 'bob', 'carol'];
          const long = round % 2 === 0 ? [...short, joiner] : [joiner, ...short];
          const seen: string[][] = [];
          let settled = false;
          const twins = Promise.all([
            store.appendMessages(T, to(short, text), { idempotencyKey: key }),
            store.appendMessages(T, to(long, text), { idempotencyKey: key }),
          ]).finally(() => (settled = true));
          while (!settled) {
            const now = await store.readAppended(T, key);
            if (now) seen.push(now.map(pair));
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
          const results = await twins;
          const final = (await store.readAppended(T, key))!.map(pair);
          expect(final === undefined, `round ${round}`).toBe(false);
          for (const s of seen) expect(s, `round ${round}: a retry's replay changed`).toEqual(final);
          for (const r of results) expect(r.value.messages.map(pair), `round ${round}: a twin's answer`).toEqual(final);
          expect(results.filter((r) => !r.value.replayed), `round ${round}`).toHaveLength(1);
          const holders: string[] = [];
          for (const n of [...short, joiner]) {
            const copies = (await store.readInbox(T, n)).filter((e) => e.text === text);
            expect(copies.length, `round ${round}: copies in ${n}`).toBeLessThanOrEqual(1);
            if (copies.length === 1) holders.push(n);
          }
          expect(holders.sort(), `round ${round}: the copies written are the ones the record names`).toEqual([...final].sort());
        }
      });

      it('answers a keyed call that finds another call\'s messages under its key as a replay (so the caller can tell KEY_REUSED), also while that call is still writing', async () => {
        // Break test, session 18: on files a call that found the first call's copies half written
        // wrote the rest and answered replayed: false with the first call's text, so the send use
        // case (which checks a replay against the call) reported its own, different message as sent.
        const crew = ['alice', 'bob', 'carol', 'dan', 'erin', 'fay'];
        await withTeam(...crew);
        for (let round = 0; round < 10; round++) {
          const key = `k-other-${round}`;
          // The first call starts with the first member, the other at the far end: the other meets the first call's plan mid-way.
          const call = (text: string, names: string[]) => store.appendMessages(T, names.map((n) => ({ to: n, entry: entry('team-lead', text) })), { idempotencyKey: key });
          const results = await Promise.all([call(`one ${round}`, crew), call(`two ${round}`, [...crew].reverse())]);
          const stored = (await store.readAppended(T, key))!;
          const text = stored[0]!.entry.text;
          expect(stored.every((m) => m.entry.text === text), `round ${round}`).toBe(true);
          results.forEach((r, i) => {
            const mine = i === 0 ? `one ${round}` : `two ${round}`;
            expect(r.value.messages.map((m) => m.entry.text), `round ${round}`).toEqual(crew.map(() => text));
            if (mine !== text) expect(r.value.replayed, `round ${round}: the call whose text was not stored`).toBe(true);
          });
        }
      });

      it('refuses an entry whose timestamp is not a string (INVALID_ARGUMENT asking for ISO-8601), storing nothing', async () => {
        // Break test, session 16: Redis stored a numeric timestamp (Claude Code's format, and the
        // files store, have an ISO string), which Claude Code's reader then cannot order.
        await withTeam('alice');
        for (const timestamp of [1_767_225_600_000, null, { at: 1 }]) {
          const bad = { ...entry('team-lead', 'when?'), timestamp } as unknown as InboxEntry;
          const err = await refusal(store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'fine') }, { to: 'alice', entry: bad }], { idempotencyKey: `ts-${String(timestamp)}` }));
          expect(err.code, String(timestamp)).toBe('INVALID_ARGUMENT');
          expect(err.message).toMatch(/timestamp/);
          expect(err.message).toMatch(/ISO-8601/);
          const unkeyed = await refusal(store.appendMessages(T, [{ to: 'alice', entry: bad }]));
          expect(unkeyed.code, String(timestamp)).toBe('INVALID_ARGUMENT');
        }
        expect(await store.readInbox(T, 'alice')).toEqual([]);
        expect(await store.listInboxes(T)).toEqual([]);
      });

      it('hands unread entries out exactly once: a take leases them, acknowledge marks them read', async () => {
        await withTeam('alice');
        for (const text of ['a', 'b', 'c']) await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', text) }]);
        const first = await journalled(T, () => store.takeUnread(T, 'alice', { reader: 'r1', limit: 2 }));
        expect(first.value.entries.map((e) => e.text)).toEqual(['a', 'b']);
        expect(first.value.remaining).toBe(1);
        expect(first.value.id).not.toBe('');
        expect(first.events).toMatchObject([
          { kind: 'delivery', to: 'alice', state: 'delivered', lease: first.value.id },
          { kind: 'delivery', to: 'alice', state: 'delivered', lease: first.value.id },
        ]);
        const second = await store.takeUnread(T, 'alice', { reader: 'r2' });
        expect(second.value.entries.map((e) => e.text)).toEqual(['c']);
        const none = await store.takeUnread(T, 'alice', { reader: 'r3' });
        expect(none.value).toMatchObject({ id: '', entries: [], remaining: 0 }); // all three are held by live leases
        expect(none.events).toEqual([]);
        expect((await store.readInbox(T, 'alice')).map((e) => e.read)).toEqual([false, false, false]);

        const acked = await journalled(T, () => store.acknowledge(T, 'alice', first.value.id));
        expect(acked.value).toBe(2);
        expect(acked.events).toMatchObject([{ kind: 'delivery', state: 'read' }, { kind: 'delivery', state: 'read' }]);
        expect((await store.readInbox(T, 'alice')).map((e) => e.read)).toEqual([true, true, false]);
        expect((await store.acknowledge(T, 'alice', first.value.id)).value).toBe(0);
      });

      it('puts released entries back at once, and expired leases after their time', async () => {
        await withTeam('alice');
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'x') }]);
        const lease = await store.takeUnread(T, 'alice', { reader: 'r1' });
        const released = await journalled(T, () => store.release(T, 'alice', lease.value.id));
        expect(released.value).toBe(1);
        expect(released.events).toMatchObject([{ kind: 'delivery', state: 'released', lease: lease.value.id }]);
        // Long enough that the take just below cannot outlive it on a loaded machine (a 150 ms lease
        // could expire before it ran), short enough to wait out.
        const short = await store.takeUnread(T, 'alice', { reader: 'r2', leaseMs: 1_000 });
        expect(short.value.entries.map((e) => e.text)).toEqual(['x']);
        expect((await store.takeUnread(T, 'alice', { reader: 'r3' })).value.entries).toEqual([]);
        await new Promise((r) => setTimeout(r, 1_100));
        const after = await store.takeUnread(T, 'alice', { reader: 'r3' });
        expect(after.value.entries.map((e) => e.text)).toEqual(['x']);
        expect((await store.acknowledge(T, 'alice', after.value.id)).value).toBe(1);
        expect((await store.acknowledge(T, 'alice', short.value.id)).value).toBe(0);
      });

      it('never lets a late acknowledgement of an expired lease mark an entry another live lease holds', async () => {
        await withTeam('alice');
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'x') }]);
        const short = await store.takeUnread(T, 'alice', { reader: 'r1', leaseMs: 150 });
        await new Promise((r) => setTimeout(r, 250));
        const live = await store.takeUnread(T, 'alice', { reader: 'r2' });
        expect(live.value.entries.map((e) => e.text)).toEqual(['x']);
        const late = await journalled(T, () => store.acknowledge(T, 'alice', short.value.id));
        expect(late.value).toBe(0);
        expect(late.events).toEqual([]);
        expect((await store.readInbox(T, 'alice')).map((e) => e.read)).toEqual([false]);
        expect((await store.acknowledge(T, 'alice', live.value.id)).value).toBe(1);
      });

      it('takes and marks read in one step for a reader that consumes on hand-out (acknowledge), keeping no lease', async () => {
        await withTeam('alice');
        const sent = await store.appendMessages(T, ['a', 'b', 'c'].map((text) => ({ to: 'alice', entry: entry('team-lead', text) })));
        const held = await store.takeUnread(T, 'alice', { reader: 'r1', limit: 1 });
        expect(held.value.entries.map((e) => e.text)).toEqual(['a']);
        const consumed = await journalled(T, () => store.takeUnread(T, 'alice', { reader: 'mcp', limit: 1, acknowledge: true }));
        expect(consumed.value.entries.map((e) => [e.text, e.read])).toEqual([['b', true]]);
        expect(consumed.value.id).not.toBe('');
        expect(consumed.value.remaining).toBe(1);
        const b = sent.value.messages[1]!.entry.msg_id;
        expect(consumed.events).toMatchObject([
          { kind: 'delivery', to: 'alice', key: b, state: 'delivered', lease: consumed.value.id },
          { kind: 'delivery', to: 'alice', key: b, state: 'read', lease: consumed.value.id },
        ]);
        expect((await store.readInbox(T, 'alice')).map((e) => e.read)).toEqual([false, true, false]);
        expect((await store.release(T, 'alice', consumed.value.id)).value).toBe(0); // no lease was kept
        const rest = await store.takeUnread(T, 'alice', { reader: 'mcp', acknowledge: true });
        expect(rest.value.entries.map((e) => e.text)).toEqual(['c']);
        const none = await store.takeUnread(T, 'alice', { reader: 'mcp', acknowledge: true });
        expect(none.value).toMatchObject({ id: '', entries: [], remaining: 0 });
        expect(none.events).toEqual([]);
        expect((await store.readInbox(T, 'alice')).map((e) => e.read)).toEqual([false, true, true]);
      });

      it('acknowledges only the given keys of a lease', async () => {
        await withTeam('alice');
        const sent = await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'p') }, { to: 'alice', entry: entry('team-lead', 'q') }]);
        const lease = await store.takeUnread(T, 'alice', { reader: 'r1' });
        const key = sent.value.messages[1]!.entry.msg_id!;
        expect((await store.acknowledge(T, 'alice', lease.value.id, { keys: [key] })).value).toBe(1);
        expect((await store.readInbox(T, 'alice')).map((e) => e.read)).toEqual([false, true]);
      });

      it('marks entries read by identity and archives the read head', async () => {
        await withTeam('alice');
        const sent = await store.appendMessages(T, ['1', '2', '3'].map((text) => ({ to: 'alice', entry: entry('team-lead', text) })));
        const keys = sent.value.messages.slice(0, 2).map((m) => m.entry.msg_id!);
        const marked = await journalled(T, () => store.markRead(T, 'alice', keys));
        expect(marked.value).toBe(2);
        expect((await store.markRead(T, 'alice', keys)).value).toBe(0);
        expect((await store.archiveInbox(T, 'alice')).value).toBe(2);
        expect((await store.readInbox(T, 'alice')).map((e) => e.text)).toEqual(['3']);
        const history = await store.readInboxHistory(T, 'alice');
        expect(history.archived.map((e) => e.text)).toEqual(['1', '2']);
        expect(history.setAside).toEqual([]);
      });

      it('archives with onlyKeys: the read head stops at the first entry not named, named entries after it stay (the bridge, docs/bridge.md)', async () => {
        await withTeam('alice');
        const sent = await store.appendMessages(T, ['1', '2', '3', '4'].map((text) => ({ to: 'alice', entry: entry('team-lead', text) })));
        const keys = sent.value.messages.map((m) => m.entry.msg_id!);
        await store.markRead(T, 'alice', keys);
        // 1 and 2 named, 3 not, 4 named: only 1 and 2 move; 4 is behind an entry that may not move.
        expect((await store.archiveInbox(T, 'alice', { onlyKeys: new Set([keys[0]!, keys[1]!, keys[3]!]) })).value).toBe(2);
        expect((await store.readInbox(T, 'alice')).map((e) => e.text)).toEqual(['3', '4']);
        expect((await store.archiveInbox(T, 'alice', { onlyKeys: new Set([keys[3]!]) })).value).toBe(0);
        expect((await store.archiveInbox(T, 'alice', { onlyKeys: new Set() })).value).toBe(0);
        expect((await store.archiveInbox(T, 'alice', { onlyKeys: new Set([keys[2]!, keys[3]!]) })).value).toBe(2);
        expect((await store.readInbox(T, 'alice'))).toEqual([]);
        expect((await store.readInboxHistory(T, 'alice')).archived.map((e) => e.text)).toEqual(['1', '2', '3', '4']);
      });

      it('never archives in a send; a reader\'s leave and the archiver move only read entries and lose none (issue 24 item 4)', async () => {
        await withTeam('alice');
        const pad = 'x'.repeat(300);
        const sent = await store.appendMessages(T, Array.from({ length: 300 }, (_, i) => ({ to: 'alice', entry: entry('team-lead', `h${i} ${pad}`) })));
        await store.markRead(T, 'alice', sent.value.messages.map((m) => m.entry.msg_id!));
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'one more') }]);
        expect((await store.readInboxHistory(T, 'alice')).archived).toEqual([]);
        expect(await store.readInbox(T, 'alice')).toHaveLength(301);
        const lease = await store.takeUnread(T, 'alice', { reader: 'r1' });
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'unread tail') }]);
        expect((await store.acknowledge(T, 'alice', lease.value.id, { archiveRead: true })).value).toBe(1);
        await store.archiveInbox(T, 'alice', { pastTrigger: true });
        const live = await store.readInbox(T, 'alice');
        const archived = (await store.readInboxHistory(T, 'alice')).archived;
        expect(archived.filter((e) => e.read !== true)).toEqual([]);
        expect(live.filter((e) => e.read !== true).map((e) => e.text)).toEqual(['unread tail']);
        expect([...archived, ...live].map((e) => e.text).sort()).toEqual([...sent.value.messages.map((m) => m.entry.text), 'one more', 'unread tail'].sort());
      });

      it('lists the inbox of a departed member as a non-member one, and sets it aside', async () => {
        await withTeam('alice');
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'left behind') }]);
        await store.removeMember(T, 'alice');
        expect(await store.listInboxes(T)).toEqual([{ name: 'alice', member: false }]);
        const aside = await store.setInboxAside(T, 'alice');
        expect(typeof aside.value).toBe('string');
        expect(await store.listInboxes(T)).toEqual([]);
        expect((await store.setInboxAside(T, 'alice')).value).toBeUndefined();
        // An inbox set aside starts afresh at its next append, and is listed again.
        await store.addMember(T, teammate(T, 'alice'));
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'back') }]);
        expect(await store.listInboxes(T)).toEqual([{ name: 'alice', member: true }]);
        expect((await store.readInbox(T, 'alice')).map((e) => e.text)).toEqual(['back']);
      });
    });

    describe('tasks', () => {
      it('creates tasks with increasing ids, links blockers both ways, and never reuses an id', async () => {
        await withTeam();
        const one = await journalled(T, () => store.createTask(T, { subject: 'one', description: 'first', metadata: { keep: 1, drop: null } }));
        expect(one.value.task).toMatchObject({ id: '1', subject: 'one', description: 'first', status: 'pending', blocks: [], blockedBy: [], metadata: { keep: 1 } });
        expect(one.events).toMatchObject([{ kind: 'task', action: 'created', task: { id: '1' } }]);
        const two = await store.createTask(T, { subject: 'two', description: '', blockedBy: ['1', '1'] });
        expect(two.value.task.blockedBy).toEqual(['1']);
        expect((await store.readTask(T, '1'))?.blocks).toEqual(['2']);
        await store.createTask(T, { subject: 'three', description: '' });
        await store.deleteTask(T, '3');
        expect((await store.createTask(T, { subject: 'four', description: '' })).value.task.id).toBe('4');
        expect(await store.readHighWatermark(T)).toMatch(/^[34]$/);
        expect((await refusal(store.createTask(T, { subject: 'x', description: '', blockedBy: ['99'] }))).code).toBe('TASK_NOT_FOUND');
        expect((await store.listTasks(T)).map((t) => t.id)).toEqual(['1', '2', '4']);
      });

      it('replays a create whose idempotency key was used, also when the calls race', async () => {
        await withTeam();
        const first = await store.createTask(T, { subject: 'once', description: '' }, { idempotencyKey: 'c-1' });
        const again = await store.createTask(T, { subject: 'once', description: '' }, { idempotencyKey: 'c-1' });
        expect(again.value).toEqual({ task: first.value.task, replayed: true });
        expect(again.events).toEqual([]);
        const racing = await Promise.all([1, 2, 3].map(() => store.createTask(T, { subject: 'race', description: '' }, { idempotencyKey: 'c-2' })));
        expect(racing.filter((r) => !r.value.replayed)).toHaveLength(1);
        expect(new Set(racing.map((r) => r.value.task.id)).size).toBe(1);
        expect((await store.listTasks(T)).map((t) => t.subject)).toEqual(['once', 'race']);
      });

      it('claims by id with Claude Code\'s refusals', async () => {
        await withTeam('alice', 'bob');
        await store.createTask(T, { subject: 'a', description: '' });
        await store.createTask(T, { subject: 'b', description: '', blockedBy: ['1'] });
        await store.createTask(T, { subject: 'c', description: '' });
        const won = await journalled(T, () => store.claimTask(T, { claimant: 'alice', id: '1' }, { actor: 'alice' }));
        expect(won.value).toMatchObject({ id: '1', owner: 'alice', status: 'in_progress' });
        expect((await store.claimTask(T, { claimant: 'alice', id: '1' })).value).toMatchObject({ owner: 'alice' });
        const taken = await refusal(store.claimTask(T, { claimant: 'bob', id: '1' }));
        expect([taken.code, taken.details.reason]).toEqual(['TASK_ALREADY_CLAIMED', 'already_claimed']);
        const blocked = await refusal(store.claimTask(T, { claimant: 'bob', id: '2' }));
        expect([blocked.code, blocked.details.reason]).toEqual(['TASK_BLOCKED', 'blocked']);
        await store.patchTask(T, '3', { status: 'completed' });
        const done = await refusal(store.claimTask(T, { claimant: 'bob', id: '3' }));
        expect([done.code, done.details.reason]).toEqual(['TASK_ALREADY_RESOLVED', 'already_resolved']);
        expect((await refusal(store.claimTask(T, { claimant: 'bob', id: '77' }))).code).toBe('TASK_NOT_FOUND');
        // Claude Code's order (owner before status) keeps already_claimed for another's completed task; the message says completed (new-user trial).
        await store.patchTask(T, '1', { status: 'completed' });
        const finished = await refusal(store.claimTask(T, { claimant: 'bob', id: '1' }));
        expect([finished.code, finished.details.reason, finished.message]).toEqual(['TASK_ALREADY_CLAIMED', 'already_claimed', 'Task #1 is already completed (by alice): there is nothing left to claim. (reason: already_claimed)']);
      });

      it('claims the next ready task (own assigned first), refuses a busy claimant with busyCheck', async () => {
        await withTeam('alice', 'bob');
        await store.createTask(T, { subject: 'hidden', description: '', metadata: { _internal: true } });
        await store.createTask(T, { subject: 'free', description: '' });
        await store.createTask(T, { subject: 'mine', description: '', owner: 'bob' });
        expect((await store.claimTask(T, { claimant: 'bob', preferAssigned: true })).value?.subject).toBe('mine');
        const busy = await refusal(store.claimTask(T, { claimant: 'bob', busyCheck: true }));
        expect([busy.code, busy.details.reason]).toEqual(['AGENT_BUSY', 'agent_busy']);
        expect((await store.claimTask(T, { claimant: 'alice' })).value?.subject).toBe('free');
        const none = await store.claimTask(T, { claimant: 'alice' });
        expect(none).toEqual({ value: undefined, events: [] });
      });

      it('lets only members declaring every capability a task requires claim it (missing_capability), by id and as the next task', async () => {
        await store.createTeam(teamConfig(T));
        await store.addMember(T, teammate(T, 'rev'), { record: { runtime: 'in-process', capabilities: ['review', 'csv'] } });
        await store.addMember(T, teammate(T, 'dev'), { record: { runtime: 'in-process', capabilities: ['csv'] } });
        await store.addMember(T, teammate(T, 'cc')); // a Claude Code member: no record, no capabilities
        await store.createTask(T, { subject: 'review it', description: '', metadata: { requires: ['review', 'csv', 'review'] } });
        await store.createTask(T, { subject: 'load it', description: '', metadata: { requires: 'csv' } });
        await store.createTask(T, { subject: 'anyone', description: '' });
        const refused = await refusal(store.claimTask(T, { claimant: 'dev', id: '1' }));
        expect(refused).toMatchObject({ code: 'MISSING_CAPABILITY', details: { reason: 'missing_capability', id: '1', as: 'dev', requires: ['review', 'csv'], missing: ['review'] } });
        expect(refused.message).toContain('--capability review');
        expect((await refusal(store.claimTask(T, { claimant: 'cc', id: '2' }))).details).toMatchObject({ missing: ['csv'] });
        expect(await store.readTask(T, '1')).toMatchObject({ status: 'pending' });
        // Without an id, a claimant skips what it cannot take.
        expect((await store.claimTask(T, { claimant: 'cc' })).value?.subject).toBe('anyone');
        expect((await store.claimTask(T, { claimant: 'dev' })).value?.subject).toBe('load it');
        expect((await store.claimTask(T, { claimant: 'dev' })).value).toBeUndefined();
        expect((await store.claimTask(T, { claimant: 'rev', id: '1' })).value).toMatchObject({ owner: 'rev', status: 'in_progress' });
      });

      it('patches fields, merges metadata, makes the actor owner when starting, and refuses when blocked', async () => {
        await withTeam('alice');
        await store.createTask(T, { subject: 'a', description: '', metadata: { x: 1, y: 2 } });
        await store.createTask(T, { subject: 'b', description: '', blockedBy: ['1'] });
        const started = await journalled(T, () => store.patchTask(T, '1', { status: 'in_progress', metadata: { x: null, z: 3 } }, { actor: 'alice' }));
        expect(started.value.previous).toMatchObject({ status: 'pending' });
        expect(started.value.task).toMatchObject({ owner: 'alice', status: 'in_progress', metadata: { y: 2, z: 3 } });
        expect(started.events).toMatchObject([{ kind: 'task', action: 'updated', actor: 'alice' }]);
        expect((started.events[0] as { changed?: string[] }).changed?.sort()).toEqual(['fencingToken', 'metadata', 'owner', 'status']);
        const blocked = await refusal(store.patchTask(T, '2', { status: 'completed' }));
        expect(blocked.code).toBe('TASK_BLOCKED');
        expect(blocked.details.blockedBy).toEqual(['1']);
        const same = await store.patchTask(T, '1', { subject: 'a' });
        expect(same.events).toEqual([]);
        const cleared = await store.patchTask(T, '1', { owner: null, activeForm: 'Doing a' });
        expect(cleared.value.task.owner).toBeUndefined();
        expect(cleared.value.task.activeForm).toBe('Doing a');
        expect((await refusal(store.patchTask(T, '9', { subject: 'x' }))).code).toBe('TASK_NOT_FOUND');
      });

      it('applies a patch only while the task still has the expected values (TASK_CONFLICT)', async () => {
        await withTeam('alice');
        await store.createTask(T, { subject: 'a', description: '' });
        await store.claimTask(T, { claimant: 'alice', id: '1' });
        const conflict = await refusal(store.patchTask(T, '1', { status: 'pending', owner: null, expect: { owner: 'bob' } }));
        expect(conflict.code).toBe('TASK_CONFLICT');
        expect(await store.readTask(T, '1')).toMatchObject({ owner: 'alice', status: 'in_progress' });
        const ok = await store.patchTask(T, '1', { status: 'pending', owner: null, expect: { owner: 'alice', status: 'in_progress' } });
        expect(ok.value.task.status).toBe('pending');
      });

      it('links and unlinks dependencies on both tasks; a cycle is refused and nothing changes', async () => {
        await withTeam();
        for (const s of ['a', 'b', 'c']) await store.createTask(T, { subject: s, description: '' });
        const linked = await journalled(T, () => store.linkTasks(T, [{ blocked: '2', blocker: '1' }, { blocked: '3', blocker: '2' }]));
        expect(linked.value.map((t) => t.id).sort()).toEqual(['1', '2', '3']);
        expect(await store.readTask(T, '1')).toMatchObject({ blocks: ['2'], blockedBy: [] });
        expect(await store.readTask(T, '2')).toMatchObject({ blocks: ['3'], blockedBy: ['1'] });
        const before = await store.listTasks(T);
        const cycle = await refusal(store.linkTasks(T, [{ blocked: '1', blocker: '1' }]));
        expect(cycle.code).toBe('TASK_CYCLE');
        const longer = await refusal(store.linkTasks(T, [{ blocked: '2', blocker: '3' }, { blocked: '1', blocker: '3' }]));
        expect(longer.code).toBe('TASK_CYCLE');
        expect(await store.listTasks(T)).toEqual(before);
        expect((await refusal(store.linkTasks(T, [{ blocked: '1', blocker: '42' }]))).code).toBe('TASK_NOT_FOUND');
        await store.unlinkTasks(T, [{ blocked: '2', blocker: '1' }, { blocked: '3', blocker: '1' }]);
        expect(await store.readTask(T, '1')).toMatchObject({ blocks: [] });
        expect(await store.readTask(T, '2')).toMatchObject({ blockedBy: [] });
      });

      it('deletes a task and strips it from every other task', async () => {
        await withTeam();
        await store.createTask(T, { subject: 'a', description: '' });
        await store.createTask(T, { subject: 'b', description: '', blockedBy: ['1'] });
        const deleted = await journalled(T, () => store.deleteTask(T, '1'));
        expect(deleted.value.id).toBe('1');
        expect(deleted.events[0]).toMatchObject({ kind: 'task', action: 'deleted', task: { id: '1' } });
        expect(await store.readTask(T, '1')).toBeUndefined();
        expect(await store.readTask(T, '2')).toMatchObject({ blockedBy: [] });
        expect((await refusal(store.deleteTask(T, '1'))).code).toBe('TASK_NOT_FOUND');
      });

      it('puts a task as it is under its id (a mirror): created, replaced, equal writes nothing, ids never reused', async () => {
        await withTeam('alice');
        const mirrored = { id: '7', subject: 'from elsewhere', description: 'd', activeForm: 'Mirroring', owner: 'alice', status: 'in_progress' as const, blocks: [], blockedBy: ['3'], metadata: { origin: 'b' } };
        const created = await journalled(T, () => store.putTask(T, mirrored));
        expect(created.value).toEqual(mirrored);
        expect(created.events).toMatchObject([{ kind: 'task', action: 'created', task: mirrored }]);
        expect(await store.readTask(T, '7')).toEqual(mirrored);
        expect(await store.readHighWatermark(T)).toBe('7');
        expect((await store.createTask(T, { subject: 'next', description: '' })).value.task.id).toBe('8');
        const same = await store.putTask(T, mirrored);
        expect(same.events).toEqual([]);
        const { activeForm: _gone, ...rest } = mirrored;
        const replaced = { ...rest, subject: 'renamed', status: 'completed' as const, owner: undefined, metadata: { origin: 'c' } };
        delete (replaced as { owner?: string }).owner;
        const updated = await journalled(T, () => store.putTask(T, replaced));
        expect(updated.value).toEqual(replaced);
        expect(updated.events).toHaveLength(1);
        expect(updated.events[0]).toMatchObject({ kind: 'task', action: 'updated', task: replaced });
        expect([...((updated.events[0] as { changed?: string[] }).changed ?? [])].sort()).toEqual(['activeForm', 'metadata', 'owner', 'status', 'subject']);
        expect(await store.readTask(T, '7')).toEqual(replaced);
        expect((await refusal(store.putTask(T, { ...mirrored, id: 'x' }))).code).toBe('INVALID_ARGUMENT');
        expect((await refusal(store.putTask('nope', mirrored))).code).toBe('TEAM_NOT_FOUND');
      });

      it('puts a task as a compare-and-set: written only while the stored task is what the caller read (or absent)', async () => {
        await withTeam('alice');
        const v1 = { id: '4', subject: 'mirror', description: 'd', status: 'pending' as const, blocks: [], blockedBy: [], metadata: { k: 1 } };
        expect((await refusal(store.putTask(T, v1, { expect: { ...v1, subject: 'other' } }))).code).toBe('TASK_CONFLICT');
        expect(await store.readTask(T, '4')).toBeUndefined();
        await store.putTask(T, v1, { expect: null });
        expect((await refusal(store.putTask(T, { ...v1, subject: 'again' }, { expect: null }))).code).toBe('TASK_CONFLICT');
        const v2 = { ...v1, owner: 'alice', status: 'in_progress' as const };
        await store.putTask(T, v2, { expect: v1 });
        for (const stale of [v1, { ...v2, metadata: { k: 2 } }, { ...v2, blockedBy: ['9'] }]) {
          expect((await refusal(store.putTask(T, { ...v2, subject: 'lost' }, { expect: stale }))).code).toBe('TASK_CONFLICT');
        }
        expect(await store.readTask(T, '4')).toEqual(v2);
      });

      it('unassigns an owner\'s open tasks', async () => {
        await withTeam('alice');
        await store.createTask(T, { subject: 'a', description: '' });
        await store.createTask(T, { subject: 'b', description: '' });
        await store.claimTask(T, { claimant: 'alice', id: '1' });
        await store.claimTask(T, { claimant: 'alice', id: '2' });
        await store.patchTask(T, '2', { status: 'completed' });
        const t = await journalled(T, () => store.unassignTasks(T, 'alice'));
        expect(t.value.map((x) => x.id)).toEqual(['1']);
        expect(await store.readTask(T, '1')).toMatchObject({ status: 'pending' });
      });

      it('lists tasks in numeric id order (10 after 9)', async () => {
        await withTeam();
        expect(await store.listTasks(T)).toEqual([]);
        for (let i = 0; i < 12; i++) await store.createTask(T, { subject: `t${i}`, description: '' });
        expect((await store.listTasks(T)).map((t) => t.id)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);
      });
    });

    describe('settings', () => {
      it('reads {v: 1} until set; a patch sets and removes keys in one journalled step; no change writes nothing', async () => {
        await withTeam('alice');
        expect(await store.readSettings(T)).toEqual({ v: 1 });
        const before = await store.readEvents(T);
        const set = await store.updateSettings(T, { policy: { createTasks: ['alice'] }, approve: ['commands'] }, { actor: 'team-lead' });
        expect(set.value).toEqual({ settings: { v: 1, policy: { createTasks: ['alice'] }, approve: ['commands'] }, changed: ['approve', 'policy'] });
        expect(set.events).toMatchObject([{ kind: 'settings', v: 3, team: T, actor: 'team-lead', changed: ['approve', 'policy'] }]);
        expect((await store.readEvents(T, { since: before.cursor })).events).toEqual(set.events);
        expect(await store.readSettings(T)).toEqual({ v: 1, policy: { createTasks: ['alice'] }, approve: ['commands'] });

        const same = await store.updateSettings(T, { approve: ['commands'] });
        expect(same.events).toEqual([]);
        const cleared = await store.updateSettings(T, { approve: null });
        expect(cleared.value.changed).toEqual(['approve']);
        expect(await store.readSettings(T)).toEqual({ v: 1, policy: { createTasks: ['alice'] } });
      });

      it('patches one policy rule inside the transition: concurrent edits of different rules all survive', async () => {
        await withTeam('alice', 'bob');
        await store.updateSettings(T, { policy: { stopMembers: ['alice'] }, approve: ['commands'] });
        // Many at once, each of its own rule (a whole-policy write would keep only the last).
        await Promise.all([
          store.updateSettings(T, { 'policy.createTasks': ['alice'] }, { actor: 'team-lead' }),
          store.updateSettings(T, { 'policy.deleteTasks': ['bob'] }, { actor: 'team-lead' }),
          store.updateSettings(T, { 'policy.assignTasks': ['@lead'] }, { actor: 'team-lead' }),
          store.updateSettings(T, { 'policy.message.bob': ['@lead'] }, { actor: 'team-lead' }),
          store.updateSettings(T, { 'policy.message.*': ['*'] }, { actor: 'team-lead' }),
          store.updateSettings(T, { 'policy.stopMembers': null }, { actor: 'team-lead' }),
        ]);
        expect(await store.readSettings(T)).toEqual({
          v: 1,
          approve: ['commands'],
          policy: { createTasks: ['alice'], deleteTasks: ['bob'], assignTasks: ['@lead'], message: { bob: ['@lead'], '*': ['*'] } },
        });
        const events = (await store.readEvents(T)).events.filter((e) => e.kind === 'settings');
        expect(events.length).toBe(7);
        // Removing the last rules removes the map and the policy; unknown rules change nothing.
        await store.updateSettings(T, { 'policy.message.bob': null, 'policy.message.*': null, 'policy.createTasks': null, 'policy.deleteTasks': null, 'policy.assignTasks': null });
        expect(await store.readSettings(T)).toEqual({ v: 1, approve: ['commands'] });
        const bad = await refusal(store.updateSettings(T, { 'policy.sendMoney': ['alice'] }));
        expect(bad.code).toBe('INVALID_ARGUMENT');
        expect(bad.message).toContain('policy.sendMoney');
        expect(await store.readSettings(T)).toEqual({ v: 1, approve: ['commands'] });
      });

      it('refuses an invalid result (INVALID_ARGUMENT, nothing written) and an unknown team (TEAM_NOT_FOUND)', async () => {
        await withTeam();
        const bad = await refusal(store.updateSettings(T, { policy: { createTasks: 'alice' } as never }));
        expect(bad.code).toBe('INVALID_ARGUMENT');
        expect(bad.message).toContain('policy.createTasks');
        expect(await store.readSettings(T)).toEqual({ v: 1 });
        expect((await refusal(store.readSettings('nobody'))).code).toBe('TEAM_NOT_FOUND');
        expect((await refusal(store.updateSettings('nobody', { approve: ['commands'] }))).code).toBe('TEAM_NOT_FOUND');
      });

      it('journals a refused attempt as a refused event (v3) with its actor; an unknown team is TEAM_NOT_FOUND', async () => {
        await withTeam('bob');
        const before = await store.readEvents(T);
        const r = await store.recordRefusal(T, { action: 'task.create', rule: 'policy.createTasks', code: 'NOT_PERMITTED', message: 'no', surface: 'cli' }, { actor: 'bob' });
        expect(r.events).toMatchObject([{ kind: 'refused', v: 3, actor: 'bob', action: 'task.create', rule: 'policy.createTasks', code: 'NOT_PERMITTED', surface: 'cli' }]);
        expect((await store.readEvents(T, { since: before.cursor })).events).toEqual(r.events);
        expect((await refusal(store.recordRefusal('nobody', { action: 'x', rule: 'y', code: 'NOT_PERMITTED', message: 'z' }))).code).toBe('TEAM_NOT_FOUND');
      });

      it('keeps approve in a member record', async () => {
        await store.createTeam(teamConfig(T));
        await store.addMember(T, teammate(T, 'bob'), { record: { runtime: 'process', approve: ['commands'] } });
        expect(await store.readMemberRecords(T)).toMatchObject([{ name: 'bob', runtime: 'process', approve: ['commands'] }]);
      });
    });

    describe('roster issues', () => {
      it('a roster of valid names has none; an unknown team is TEAM_NOT_FOUND', async () => {
        await withTeam('alice', 'bob');
        expect(await store.inboxlessMembers(T)).toEqual([]);
        expect((await refusal(store.inboxlessMembers('no-such-team'))).code).toBe('TEAM_NOT_FOUND');
      });
    });

    describe('reader claims', () => {
      const holder = (pid: number) => ({ kind: 'agent' as const, host: 'host-a', pid, startedAt: 1_000 + pid });

      it('gives the claim to one holder; a second is TEAMMATE_RUNNING naming the holder', async () => {
        await withTeam('alice');
        const claim = await store.claimReader(T, 'alice', holder(11));
        expect(claim.value).toMatchObject({ member: 'alice', kind: 'agent', host: 'host-a', pid: 11, state: 'idle' });
        expect(claim.value.token).not.toBe('');
        const err = await refusal(store.claimReader(T, 'alice', holder(12)));
        expect(err.code).toBe('TEAMMATE_RUNNING');
        expect(err.details).toMatchObject({ team: T, name: 'alice', holder: { kind: 'agent', host: 'host-a', pid: 11 } });
        expect(err.message).toContain('11');
        const claims = await store.readClaims(T);
        expect(claims).toMatchObject([{ member: 'alice', pid: 11, token: '' }]);
        expect((await refusal(store.claimReader(T, 'nobody', holder(1)))).code).toBe('MEMBER_NOT_FOUND');
      });

      it('a second claim by the very same holder (host, pid, start instant) is refused like any other while the first lives, and one after its ttl gets a new token', async () => {
        await withTeam('alice');
        // Two runtimes of one member in one process (two library hosts, a host and an MCP server)
        // would both consume its inbox; and a holder that lapsed (paused past its ttl) and claims
        // again must not get back the token its stale takes and acknowledgements still name.
        const first = await store.claimReader(T, 'alice', holder(11), { ttlMs: 1_000 });
        expect((await refusal(store.claimReader(T, 'alice', holder(11)))).code).toBe('TEAMMATE_RUNNING');
        await new Promise((r) => setTimeout(r, 1_100));
        const again = await store.claimReader(T, 'alice', holder(11));
        expect(again.value.token).not.toBe(first.value.token);
        expect((await refusal(store.takeUnread(T, 'alice', { reader: first.value.token, claim: first.value.token }))).code).toBe('READER_FENCED');
      });

      it('renews with beat, frees with release, and expires after its ttl', async () => {
        await withTeam('alice');
        // A ttl the three calls below (each must still see the claim live) cannot outlast on a loaded
        // machine; 200 ms could.
        const claim = await store.claimReader(T, 'alice', holder(11), { ttlMs: 1_000 });
        const beat = await store.beat(T, 'alice', claim.value.token, 'working');
        expect(beat.value).toMatchObject({ state: 'working', pid: 11 });
        expect(beat.value.lastBeatAt).toBeGreaterThanOrEqual(claim.value.lastBeatAt);
        await store.releaseReader(T, 'alice', 'not-the-token');
        expect((await refusal(store.claimReader(T, 'alice', holder(12)))).code).toBe('TEAMMATE_RUNNING');
        await store.releaseReader(T, 'alice', claim.value.token);
        const next = await store.claimReader(T, 'alice', holder(12), { ttlMs: 1_000 });
        expect(next.value.pid).toBe(12);
        expect((await refusal(store.beat(T, 'alice', claim.value.token, 'idle'))).code).toBe('TEAMMATE_RUNNING');
        await new Promise((r) => setTimeout(r, 1_100));
        const third = await store.claimReader(T, 'alice', holder(13));
        expect(third.value.pid).toBe(13);
        expect((await refusal(store.beat(T, 'alice', next.value.token, 'idle'))).code).toBe('TEAMMATE_RUNNING');
      });

      it('evicts a live-looking holder only when it is exactly the one named', async () => {
        await withTeam('alice');
        await store.claimReader(T, 'alice', holder(11));
        const wrong = await refusal(store.claimReader(T, 'alice', holder(12), { evict: { host: 'host-a', pid: 99, startedAt: 1_099 } }));
        expect(wrong.code).toBe('TEAMMATE_RUNNING');
        const taken = await store.claimReader(T, 'alice', holder(12), { evict: { host: 'host-a', pid: 11, startedAt: 1_011 } });
        expect(taken.value.pid).toBe(12);
      });

      it('puts the leases of a holder that lost its claim back at once', async () => {
        await withTeam('alice');
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'in flight') }]);
        const dead = await store.claimReader(T, 'alice', holder(11));
        const lease = await store.takeUnread(T, 'alice', { reader: dead.value.token });
        expect(lease.value.entries).toHaveLength(1);
        const next = await store.claimReader(T, 'alice', holder(12), { evict: { host: 'host-a', pid: 11, startedAt: 1_011 } });
        const again = await store.takeUnread(T, 'alice', { reader: next.value.token });
        expect(again.value.entries.map((e) => e.text)).toEqual(['in flight']);
      });
    });

    describe('events and watch', () => {
      it('reads events after an opaque cursor, and journals observed events as given', async () => {
        await withTeam('alice');
        const start = await store.readEvents(T);
        expect(start.reset).toBe(false);
        expect(typeof start.cursor).toBe('string');
        const observed: TeamEventRecord = { v: EVENT_VERSION, team: T, at: new Date().toISOString(), source: 'observed', kind: 'task', action: 'created', task: { id: '7', subject: 's', description: '', status: 'pending', blocks: [], blockedBy: [] } };
        await store.recordObserved(T, [observed]);
        const page = await store.readEvents(T, { since: start.cursor });
        expect(page.events).toEqual([observed]);
        const limited = await store.readEvents(T, { limit: 1 });
        expect(limited.events).toHaveLength(1);
        const rest = await store.readEvents(T, { since: limited.cursor });
        expect([...limited.events, ...rest.events]).toEqual(start.events.concat(page.events));
        expect((await store.readEvents(T, { since: page.cursor })).events).toEqual([]);
      });

      it('hints name members (not storage names) and task ids', async () => {
        await store.createTeam(teamConfig(T));
        await store.addMember(T, teammate(T, 'Ann Lee.v2'));
        const hints: StoreHint[] = [];
        const watch = await store.watch(T, (h) => hints.push(h));
        try {
          await store.appendMessages(T, [{ to: 'Ann Lee.v2', entry: entry('team-lead', 'hi') }]);
          await store.createTask(T, { subject: 'hinted', description: '' });
          const deadline = Date.now() + 5_000;
          const seen = () => hints.some((h) => h.kind === 'inbox' && h.member === 'Ann Lee.v2') && hints.some((h) => h.kind === 'task' && (h.id === undefined || h.id === '1'));
          while (!seen() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
          expect(seen(), JSON.stringify(hints)).toBe(true);
          expect(hints.filter((h) => h.kind === 'inbox').every((h) => h.kind === 'inbox' && h.member === 'Ann Lee.v2')).toBe(true);
        } finally {
          await watch.close();
        }
      });

      it('hints reader claims and their beats, unless the watch asks for no claims (issue 24 item 3)', async () => {
        await withTeam('alice', 'bob');
        const all: StoreHint[] = [];
        const noClaims: StoreHint[] = [];
        const watches = [await store.watch(T, (h) => all.push(h)), await store.watch(T, (h) => noClaims.push(h), { claims: false })];
        try {
          const claim = await store.claimReader(T, 'alice', { kind: 'agent', host: 'host-a', pid: 11, startedAt: 1_011 });
          await store.beat(T, 'alice', claim.value.token, 'working');
          await store.appendMessages(T, [{ to: 'bob', entry: entry('team-lead', 'hi') }]);
          const deadline = Date.now() + 5_000;
          const seen = () => all.some((h) => h.kind === 'claims') && [all, noClaims].every((hs) => hs.some((h) => h.kind === 'inbox' && h.member === 'bob'));
          while (!seen() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
          expect(seen(), JSON.stringify({ all, noClaims })).toBe(true);
          await new Promise((r) => setTimeout(r, 100)); // a late claims hint would show now
          expect(noClaims.filter((h) => h.kind === 'claims')).toEqual([]);
        } finally {
          for (const w of watches) await w.close();
        }
      });

      it('finds nothing to repair in a healthy store', async () => {
        await withTeam('alice');
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'x') }]);
        // The data is healthy; a server's own settings (Redis without AOF here) are not data.
        expect((await store.scanHealth()).filter((i) => i.kind !== 'server-setting')).toEqual([]);
      });
    });

    describe('dead letters', () => {
      it('moves the unread entries of a departed member to the dead letters, once, journalling each', async () => {
        await withTeam('alice', 'bob');
        const sent = await store.appendMessages(T, [
          { to: 'alice', entry: entry('bob', 'read one') },
          { to: 'alice', entry: entry('bob', 'unread one') },
          { to: 'alice', entry: { from: 'team-lead', text: 'no msg_id', timestamp: new Date().toISOString(), read: false } },
          // Its member's leaving answered it: not a dead letter, left as it is.
          { to: 'alice', entry: entry('team-lead', JSON.stringify({ type: 'shutdown_request', requestId: 'shutdown-1@alice', from: 'team-lead', timestamp: '2020-01-01T00:00:00.000Z' })) },
        ]);
        await store.markRead(T, 'alice', [sent.value.messages[0]!.entry.msg_id!]);
        expect((await store.deadLetterInbox(T, 'alice')).value).toEqual([]);
        await store.removeMember(T, 'alice');
        const moved = await journalled(T, () => store.deadLetterInbox(T, 'alice', { now: Date.parse('2026-01-02T03:04:05.000Z') }));
        expect(moved.value.map((l) => [l.to, l.entry.text, l.entry.read, l.at])).toEqual([
          ['alice', 'unread one', false, '2026-01-02T03:04:05.000Z'],
          ['alice', 'no msg_id', false, '2026-01-02T03:04:05.000Z'],
        ]);
        expect(moved.value[0]!.id).toBe(sent.value.messages[1]!.entry.msg_id);
        expect(moved.value[1]!.id).toMatch(/^dl-[0-9a-f]{12}$/);
        expect(moved.events).toMatchObject([
          { kind: 'delivery', to: 'alice', state: 'dead-lettered', key: moved.value[0]!.id },
          { kind: 'delivery', to: 'alice', state: 'dead-lettered' },
        ]);
        expect((await store.readInbox(T, 'alice')).map((e) => e.read)).toEqual([true, true, true, false]);
        expect(await store.listDeadLetters(T)).toEqual(moved.value);
        const again = await store.deadLetterInbox(T, 'alice');
        expect(again).toEqual({ value: [], events: [] });
        expect(await store.listDeadLetters(T)).toHaveLength(2);
      });

      it('moves the dead letters aside with a deleted team and back with its restore', async () => {
        await withTeam('alice');
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'orphan') }]);
        await store.removeMember(T, 'alice');
        const letters = (await store.deadLetterInbox(T, 'alice')).value;
        expect(letters).toHaveLength(1);
        const gone = await store.deleteTeam(T);
        await store.createTeam(teamConfig(T));
        expect(await store.listDeadLetters(T)).toEqual([]);
        await store.deleteTeam(T);
        await store.restoreTeam(gone.value.id);
        expect(await store.listDeadLetters(T)).toEqual(letters);
      });

      it('gives a name that rejoins its dead letters back unread, once, journalling each (issue 23)', async () => {
        await withTeam('alice', 'bob');
        const sent = await store.appendMessages(T, [
          { to: 'alice', entry: entry('bob', 'left unread') },
          { to: 'alice', entry: entry('bob', 'read before') },
        ]);
        await store.markRead(T, 'alice', [sent.value.messages[1]!.entry.msg_id!]);
        await store.removeMember(T, 'alice');
        const [letter] = (await store.deadLetterInbox(T, 'alice')).value;
        expect((await store.redeliverDeadLetters(T, 'alice')).value).toEqual([]); // not in the roster: nothing
        await store.addMember(T, teammate(T, 'alice'), { assignColor: true });
        const back = await journalled(T, () => store.redeliverDeadLetters(T, 'alice'));
        expect(back.value).toEqual([letter]);
        expect(back.events).toMatchObject([{ kind: 'delivery', to: 'alice', state: 'released', key: letter!.id }]);
        expect((await store.readInbox(T, 'alice')).map((e) => [e.text, e.read])).toEqual([
          ['left unread', false],
          ['read before', true],
        ]);
        expect(await store.listDeadLetters(T)).toEqual([]);
        expect(await store.redeliverDeadLetters(T, 'alice')).toEqual({ value: [], events: [] });
        expect((await store.readInbox(T, 'alice')).filter((e) => e.text === 'left unread')).toHaveLength(1);
      });

      it('removes a dead letter exactly once among racing callers', async () => {
        await withTeam('alice');
        await store.appendMessages(T, [{ to: 'alice', entry: entry('team-lead', 'orphan') }]);
        await store.removeMember(T, 'alice');
        const [letter] = (await store.deadLetterInbox(T, 'alice')).value;
        const results = await Promise.all(Array.from({ length: 4 }, () => store.removeDeadLetter(T, letter!.id)));
        expect(results.filter((r) => r.value !== undefined).map((r) => r.value)).toEqual([letter]);
        expect(await store.listDeadLetters(T)).toEqual([]);
        expect((await store.removeDeadLetter(T, 'nope')).value).toBeUndefined();
        expect((await refusal(store.listDeadLetters('no-such-team'))).code).toBe('TEAM_NOT_FOUND');
      });
    });

    describe('across processes', () => {
      it('gives a task to exactly one of six racing claimants', async () => {
        await withTeam('c0', 'c1', 'c2', 'c3', 'c4', 'c5');
        for (let round = 0; round < 3; round++) await store.createTask(T, { subject: `job ${round}`, description: '' });
        const results = await inChildren<Array<{ id: string; won: boolean; code?: string }>>(6, (i) => ({ op: 'claim', claimant: `c${i}`, ids: ['1', '2', '3'] }));
        for (const id of ['1', '2', '3']) {
          const winners = results.flatMap((r, i) => (r.find((x) => x.id === id)?.won ? [`c${i}`] : []));
          expect(winners, `task ${id}`).toHaveLength(1);
          expect(await store.readTask(T, id)).toMatchObject({ owner: winners[0], status: 'in_progress' });
          for (const r of results) {
            const attempt = r.find((x) => x.id === id)!;
            if (!attempt.won) expect(attempt.code).toBe('TASK_ALREADY_CLAIMED');
          }
        }
      });

      it('loses and duplicates nothing under four appending processes; timestamps never decrease', async () => {
        await withTeam('alice');
        const sent = await inChildren<string[]>(4, (i) => ({ op: 'append', to: 'alice', from: 'team-lead', prefix: `w${i}`, count: 25 }));
        const inbox = await store.readInbox(T, 'alice');
        expect(inbox).toHaveLength(100);
        expect(new Set(inbox.map((e) => e.msg_id))).toEqual(new Set(sent.flat()));
        const stamps = inbox.map((e) => Date.parse(e.timestamp));
        for (let i = 1; i < stamps.length; i++) expect(stamps[i]!, `entry ${i}`).toBeGreaterThanOrEqual(stamps[i - 1]!);
        const triples = inbox.map((e) => `${e.from} ${e.timestamp} ${e.text}`);
        expect(new Set(triples).size).toBe(100);
        const journalled = (await store.readEvents(T)).events.filter((e) => e.kind === 'message');
        expect(journalled).toHaveLength(100);
      });

      it('hands each message to exactly one of four taking processes', async () => {
        await withTeam('alice');
        const batch = Array.from({ length: 60 }, (_, i) => ({ to: 'alice', entry: entry('team-lead', `m${i}`) }));
        await store.appendMessages(T, batch);
        const taken = await inChildren<string[]>(4, (i) => ({ op: 'take', member: 'alice', reader: `reader-${i}`, limit: 3 }));
        const all = taken.flat();
        expect(all).toHaveLength(60);
        expect(new Set(all).size).toBe(60);
        expect((await store.readInbox(T, 'alice')).every((e) => e.read === true)).toBe(true);
      });

      it('stores one message and one task for one idempotency key used by four processes', async () => {
        await withTeam('alice');
        const appended = await inChildren<{ replayed: boolean; msgId: string }>(4, () => ({ op: 'appendKey', to: 'alice', key: 'shared-append' }));
        expect(appended.filter((r) => !r.replayed)).toHaveLength(1);
        expect(new Set(appended.map((r) => r.msgId)).size).toBe(1);
        expect(await store.readInbox(T, 'alice')).toHaveLength(1);
        const created = await inChildren<{ replayed: boolean; id: string }>(4, () => ({ op: 'createKey', key: 'shared-task' }));
        expect(created.filter((r) => !r.replayed)).toHaveLength(1);
        expect(new Set(created.map((r) => r.id)).size).toBe(1);
        expect(await store.listTasks(T)).toHaveLength(1);
      });

      it('gives a reader claim to exactly one of four processes', async () => {
        await withTeam('alice');
        const results = await inChildren<{ won: boolean; code?: string }>(4, (i) => ({ op: 'claimReader', member: 'alice', pid: 100 + i }));
        expect(results.filter((r) => r.won)).toHaveLength(1);
        expect(results.filter((r) => !r.won).map((r) => r.code)).toEqual(['TEAMMATE_RUNNING', 'TEAMMATE_RUNNING', 'TEAMMATE_RUNNING']);
      });
    });
  });
}

function sortById<T extends { id: string }>(xs: readonly T[]): T[] {
  return [...xs].sort((a, b) => Number(a.id) - Number(b.id));
}

function sortByName<T extends { name: string }>(xs: readonly T[]): T[] {
  return [...xs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
