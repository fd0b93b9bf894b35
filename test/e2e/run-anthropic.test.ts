/**
 * `mailroom run --model anthropic:<model>` through the real binary and the real Anthropic SDK,
 * against a local server speaking the Messages API: the model claims the task, runs its command,
 * completes it, reports, and approves the shutdown request echoing its id. The request bodies show
 * the wrapped messages and tool results the runtime sent.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
let server: FakeAnthropicServer;
beforeEach(async () => {
  dir = await makeTempDir();
  server = await startFakeAnthropicServer();
});
afterEach(async () => {
  await server.close();
  await dir.cleanup();
});

type Body = { system?: string; messages: Array<{ role: string; content: string | Array<Record<string, unknown>> }> };
const lastUserContent = (body: Body) => body.messages[body.messages.length - 1]!.content as Array<Record<string, unknown>>;

describe('mailroom run with an anthropic model', () => {
  it('runs a task through the team tools and approves the shutdown', async () => {
    server.enqueue(
      { type: 'message', toolUses: [{ name: 'TaskClaim', input: {} }] },
      { type: 'message', text: 'Running it.', toolUses: [{ name: 'RunTaskCommand', input: { taskId: '1' } }] },
      { type: 'message', toolUses: [{ name: 'TaskUpdate', input: { taskId: '1', status: 'completed' } }, { name: 'SendMessage', input: { to: 'team-lead', summary: 'greeting written', message: 'Wrote greeting.txt.' } }] },
      { type: 'message', text: 'All done.' },
      (request) => {
        const text = JSON.stringify((request.body as unknown as Body).messages.at(-1));
        const requestId = /shutdown-\d+@ada/.exec(text)?.[0] ?? 'missing';
        return { type: 'message', toolUses: [{ name: 'SendMessage', input: { to: 'team-lead', message: { type: 'shutdown_response', request_id: requestId, approve: true } } }] };
      },
    );
    const file = join(dir.path, 'team.yaml');
    await writeFile(file, 'team: llm\nmembers: [{name: ada, prompt: Do the board.}]\ntasks:\n  - subject: Write a greeting\n    command: echo hello > greeting.txt\n');
    const root = join(dir.path, 'root');
    const env = { ...process.env, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL };
    const run = await runCli(['run', file, '--root', root, '--workdir', join(dir.path, 'work'), '--model', 'anthropic:claude-test', '--json'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.tasks).toEqual([expect.objectContaining({ id: '1', owner: 'ada', status: 'completed', exitCode: 0 })]);
    expect(report.shutdown).toEqual([{ name: 'ada', outcome: 'approved' }]);

    const bodies = server.requests.map((r) => r.body as unknown as Body);
    expect(bodies).toHaveLength(5);
    expect(bodies[0]!.system).toContain('You are "ada"');
    expect(lastUserContent(bodies[0]!)).toEqual([{ type: 'text', text: '<teammate-message teammate_id="team-lead">\nDo the board.\n</teammate-message>' }]);
    expect(lastUserContent(bodies[1]!)[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_fake_0_0' });
    expect(JSON.stringify(lastUserContent(bodies[2]!))).toContain('\\"exitCode\\":0');
    expect(bodies[4]!.system).toContain('#1 [completed] Write a greeting — owner you');
    expect(JSON.stringify(lastUserContent(bodies[4]!))).toMatch(/shutdown_request.*shutdown-\d+@ada/);
    expect((await openFsStores(root).team.readConfig('llm')).members.map((m) => m.name)).toEqual(['team-lead']);
  });
});
