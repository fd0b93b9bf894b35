/**
 * `mailroom run` ends as soon as nobody can make progress (issue 23), instead of waiting for its
 * whole timeout: every member's model call failing N times in a row (an OpenAI-compatible model
 * whose base URL is a closed local port), or every member idle with work nobody can claim (a failed
 * command blocks the rest). RUN_INCOMPLETE (exit 8) names the cause, and points only at what exists.
 */
import { createServer } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir('mailroom-run-gives-up-');
});
afterAll(() => dir.cleanup());

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

it('gives up once every member failed its model calls 2 times in a row, naming the failure', async () => {
  const file = join(dir.path, 'down.yaml');
  await writeFile(file, 'team: down\nmembers: [{name: a}, {name: b}]\ntasks:\n  - {subject: One, command: "echo one"}\n');
  const env = cleanEnv({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`, ANTHROPIC_API_KEY: '' });
  const run = await runCli(['run', file, '--root', join(dir.path, 'down-root'), '--workdir', join(dir.path, 'down-work'), '--model', 'openai:gpt-test', '--timeout', '10m', '--max-failed-turns', '2', '--json'], env);
  expect(run.code, run.stderr).toBe(8);
  const report = JSON.parse(run.stdout) as { endReason: string; cause: string; timedOut: boolean };
  expect(report.endReason).toBe('models-failing');
  expect(report.timedOut).toBe(false);
  expect(report.cause).toMatch(/^every member's model call failed 2 times in a row \(a, b: .+\); open: #1 pending, never claimed$/);
  const error = JSON.parse(run.stderr.trim().split('\n').pop()!) as { error: { code: string; message: string; details: { endReason: string } } };
  expect(error.error.code).toBe('RUN_INCOMPLETE');
  expect(error.error.details.endReason).toBe('models-failing');
  expect(error.error.message).not.toContain('outputTail');
  expect(error.error.message).toContain('mailroom task list');
}, 180_000);

it('a quiet run with a failed command names it and points at the output that exists', async () => {
  const file = join(dir.path, 'quiet.yaml');
  await writeFile(file, 'team: quiet\nmembers: [{name: a}]\ntasks:\n  - {key: one, subject: One, command: "echo broken >&2; exit 3"}\n  - {subject: Two, command: "echo two", blockedBy: [one]}\n');
  const run = await runCli(['run', file, '--root', join(dir.path, 'quiet-root'), '--workdir', join(dir.path, 'quiet-work')], cleanEnv());
  expect(run.code, run.stderr).toBe(8);
  expect(run.stdout).toContain('Stopped (nobody could take the work left)');
  expect(run.stdout).toContain('Why: every member went idle with no mail left and no task any of them could take; open: #1 in_progress with a (its command failed: exit 3), #2 pending, blocked by #1.');
  expect(run.stderr).toContain('RUN_INCOMPLETE');
  expect(run.stderr).toContain('the output of #1 is in its metadata.outputTail: mailroom task show 1 ');
  expect(run.stderr).not.toContain('#2 is in its metadata');
  // The pointer works: `task show 1` prints the output tail.
  const show = await runCli(['task', 'show', '1', '--root', join(dir.path, 'quiet-root'), '--team', 'quiet'], cleanEnv());
  expect(show.stdout).toContain('broken');
}, 180_000);
