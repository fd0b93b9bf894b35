/**
 * Two machines for bridge tests: two Claude Code roots (temp dirs, team files as Claude Code 2.1.109
 * writes them) and one real redis-server, with a bridge per root opened on demand.
 */
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startBridge, type Bridge, type BridgeStatus } from '../../src/bridge/bridge.js';
import type { InboxEntry } from '../../src/protocol/inbox.js';
import { openFsStores, openStores, type OpenOptions } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

export const TEAM = 'compat';
export const TASKS_FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'claude-code-2.1.109', '1-tasks-with-dependency', 'tasks');
export const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'claude-code-2.1.109', '2-teammate-spawned', 'teams');

/** One machine: its Claude Code root and, while running, its bridge. */
export interface Machine {
  root: string;
  remote: Stores;
  bridge?: Bridge;
  statuses: BridgeStatus[];
  inbox(member: string): string;
  config: string;
  task(id: string): string;
  start(): Promise<Bridge>;
}

/** Two roots (A with the fixture team, B empty) and a server. */
export interface TwoMachines {
  server: RedisServer;
  a: Machine;
  b: Machine;
  close(): Promise<void>;
}

export async function twoMachines(options: { seedA?: boolean; aof?: boolean; tasks?: boolean } = {}): Promise<TwoMachines> {
  const server = await startRedis({ aof: options.aof === true });
  const dirs: TempDir[] = [await makeTempDir('mailroom-bridge-a-'), await makeTempDir('mailroom-bridge-b-')];
  if (options.seedA !== false) await cp(FIXTURE, join(dirs[0]!.path, 'teams'), { recursive: true });
  if (options.tasks) await cp(TASKS_FIXTURE, join(dirs[0]!.path, 'tasks'), { recursive: true });
  const machines = await Promise.all(dirs.map((d) => machine(d.path, server.url)));
  return {
    server,
    a: machines[0]!,
    b: machines[1]!,
    close: async () => {
      for (const m of machines) {
        await m.bridge?.stop();
        await m.remote.close();
      }
      await server.stop();
      for (const d of dirs) await d.cleanup();
    },
  };
}

async function machine(root: string, url: string): Promise<Machine> {
  const remote = await openStores({ kind: 'redis', url, hostRoot: root }, { connection: { waitMs: 300 } } as OpenOptions);
  const m: Machine = {
    root,
    remote,
    statuses: [],
    inbox: (member) => join(root, 'teams', TEAM, 'inboxes', `${member}.json`),
    config: join(root, 'teams', TEAM, 'config.json'),
    task: (id) => join(root, 'tasks', TEAM, `${id}.json`),
    start: async () => {
      const local = openFsStores(root);
      m.bridge = await startBridge({ team: TEAM, local: local.team, host: local.host, remote: remote.team, onStatus: (s) => m.statuses.push(s), presenceMs: 500, retryMs: 100 });
      return m.bridge;
    },
  };
  return m;
}

/** An inbox file's entries as Claude Code reads it (`[]` when missing). */
export async function inboxFile(path: string): Promise<InboxEntry[]> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as InboxEntry[];
  } catch {
    return [];
  }
}
