/**
 * A rule added once, to one catalogue entry, applies on both surfaces: through the runtime's tool
 * call (what a teammate's model call runs) and through a real MCP SDK client talking JSON-RPC to
 * the MCP server. Each case builds a catalogue with a test-only rule, serves it to both surfaces
 * over one real store, and checks the outcome on disk.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, listTasks, readInbox, spawnMember } from '../../src/index.js';
import { teamToolSpecs } from '../../src/runtime/tools/index.js';
import { CATALOGUE, notPermitted, type Catalogue, type ToolCall } from '../../src/tools/index.js';
import { dataOf, errorOf, textOf } from '../helpers/mcp-client.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { serveBothSurfaces } from '../helpers/two-surfaces.js';
import { openFsStores } from '../../src/store/open.js';

const TEAM = 'rules';
let dir: TempDir;

beforeAll(async () => {
  dir = await makeTempDir('mailroom-rules-');
  await createTeam({ root: openFsStores(dir.path), team: TEAM });
  for (const name of ['alice', 'bob']) await spawnMember({ root: openFsStores(dir.path), team: TEAM, name });
  await spawnMember({ root: openFsStores(dir.path), team: TEAM, name: 'codex', model: 'unknown', modelIsLabel: true });
});
afterAll(() => dir?.cleanup());

const serve = (catalogue: Catalogue) => serveBothSurfaces({ root: dir.path, team: TEAM, runtimeAs: 'alice', mcpAs: 'codex', catalogue });

const subjects = async () => (await listTasks({ root: openFsStores(dir.path), team: TEAM })).map((v) => v.task.subject);

describe('a rule on one catalogue entry', () => {
  it('a test-only "disabled" rule hides task_create on both surfaces and refuses it on both', async () => {
    const s = await serve(CATALOGUE.withRules('task_create', { name: 'test-disabled', enabled: () => false }));
    try {
      expect(teamToolSpecs(s.runtimeContext).map((t) => t.name)).not.toContain('TaskCreate');
      expect(teamToolSpecs({ ...s.runtimeContext, catalogue: CATALOGUE }).map((t) => t.name)).toContain('TaskCreate');
      const names = (await s.mcp.client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('task_create');
      expect(names).toContain('task_list');

      const viaRuntime = await s.runtime('TaskCreate', { subject: 'From the runtime' });
      expect(viaRuntime).toMatchObject({ isError: true, content: 'TaskCreate is not enabled for alice (rule: test-disabled)' });
      const viaMcp = await s.mcp.call('task_create', { subject: 'Over MCP' });
      expect(viaMcp.isError).toBe(true);
      expect(textOf(viaMcp)).toContain('task_create disabled');
      expect(await subjects()).toEqual([]);

      expect((await s.runtime('TaskList', {})).isError).toBeFalsy();
      expect(dataOf(await s.mcp.call('task_list'))).toEqual({ tasks: [] });
    } finally {
      await s.close();
    }
  });

  it('a check refuses with NOT_PERMITTED on both surfaces, seeing the same canonical input from each', async () => {
    const seen: Pick<ToolCall, 'surface' | 'name' | 'input'>[] = [];
    const rule = {
      name: 'bob-takes-no-new-tasks',
      check: (call: ToolCall) => {
        seen.push({ surface: call.surface, name: call.name, input: call.input });
        if (call.input.owner === 'bob') throw notPermitted('bob-takes-no-new-tasks', call, 'bob takes no new tasks', { owner: 'bob' });
      },
    };
    const s = await serve(CATALOGUE.withRules('task_create', rule));
    try {
      const viaRuntime = await s.runtime('TaskCreate', { subject: 'Review', owner: 'bob', activeForm: 'Reviewing' });
      expect(viaRuntime).toMatchObject({ isError: true, content: 'bob takes no new tasks (rule: bob-takes-no-new-tasks)' });
      const refused = errorOf(await s.mcp.call('task_create', { subject: 'Review', owner: 'bob', active_form: 'Reviewing' }));
      expect(refused).toEqual({
        code: 'NOT_PERMITTED',
        message: 'bob takes no new tasks (rule: bob-takes-no-new-tasks)',
        details: { owner: 'bob', rule: 'bob-takes-no-new-tasks', tool: 'task_create' },
      });
      expect(await subjects()).toEqual([]);
      expect(seen).toEqual([
        { surface: 'runtime', name: 'TaskCreate', input: { subject: 'Review', owner: 'bob', activeForm: 'Reviewing' } },
        { surface: 'mcp', name: 'task_create', input: { subject: 'Review', owner: 'bob', activeForm: 'Reviewing' } },
      ]);

      expect((await s.runtime('TaskCreate', { subject: 'Runtime task', owner: 'alice' })).isError).toBeFalsy();
      dataOf(await s.mcp.call('task_create', { subject: 'MCP task', owner: 'codex' }));
      expect(await subjects()).toEqual(['Runtime task', 'MCP task']);
    } finally {
      await s.close();
    }
  });

  it('a rule on broadcast also holds for SendMessage and send_message to "*", which run broadcast', async () => {
    const rule = { name: 'no-broadcasts', check: (call: ToolCall) => Promise.reject(notPermitted('no-broadcasts', call, `${call.name} is off (via ${call.parent?.name ?? 'nothing'})`)) };
    const s = await serve(CATALOGUE.withRules('broadcast', rule));
    try {
      const viaRuntime = await s.runtime('SendMessage', { to: '*', message: 'all hands' });
      expect(viaRuntime).toMatchObject({ isError: true, content: 'broadcast is off (via SendMessage) (rule: no-broadcasts)' });
      expect(errorOf(await s.mcp.call('send_message', { to: '*', text: 'all hands' }))).toMatchObject({ code: 'NOT_PERMITTED', message: 'broadcast is off (via send_message) (rule: no-broadcasts)' });
      expect(errorOf(await s.mcp.call('broadcast', { text: 'all hands' }))).toMatchObject({ code: 'NOT_PERMITTED', message: 'broadcast is off (via nothing) (rule: no-broadcasts)' });

      expect((await s.runtime('SendMessage', { to: 'bob', message: 'just you' })).isError).toBeFalsy();
      const bob = await readInbox({ root: openFsStores(dir.path), team: TEAM, agent: 'bob' });
      expect(bob.messages.map((m) => m.entry.text)).toEqual(['just you']);
    } finally {
      await s.close();
    }
  });
});
