/**
 * The CLI's V8 code cache (src/cli/launch.cts) is shared by every install of one user
 * (~/.cache/mailroom): an entry made by one install must never be used by another, or that
 * install's stack traces and profiles name the other's bundle (V8 keeps the script name of the
 * compile that made the cache). Two copies of the built CLI, one cache directory.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
let tmp: TempDir;
let cache: string;
let probe: string;

/** A copy of the built CLI (bin, dist/mailroom*.cjs, the launcher and its command-word reader, package.json) at `dir`. */
async function install(dir: string): Promise<string> {
  await mkdir(join(dir, 'dist', 'cli'), { recursive: true });
  await cp(join(REPO, 'bin'), join(dir, 'bin'), { recursive: true });
  for (const bundle of (await readdir(join(REPO, 'dist'))).filter((f) => /^mailroom.*\.cjs$/.test(f))) await cp(join(REPO, 'dist', bundle), join(dir, 'dist', bundle));
  for (const file of ['launch.cjs', 'command-words.cjs']) await cp(join(REPO, 'dist', 'cli', file), join(dir, 'dist', 'cli', file));
  await cp(join(REPO, 'package.json'), join(dir, 'package.json'));
  return join(dir, 'bin', 'mailroom.js');
}

/** Runs `mailroom team list` of `bin` (on an empty root); returns the stack of its write to stdout (the bundle's frames name its file). */
function versionStack(bin: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--require', probe, bin, '--root', join(tmp.path, 'root'), 'team', 'list'], { env: { ...process.env, MAILROOM_COMPILE_CACHE: cache } }, (err, _stdout, stderr) =>
      err ? reject(err) : resolve(stderr),
    );
  });
}

beforeAll(async () => {
  tmp = await makeTempDir('mailroom-cache-');
  cache = join(tmp.path, 'cache');
  probe = join(tmp.path, 'probe.cjs');
  await writeFile(probe, // The CLI prints a result with fs.writeSync(1, …) (src/cli/output.ts), a stream's output through process.stdout.
    "const fs = require('fs'); const ws = fs.writeSync; const w = process.stdout.write.bind(process.stdout); const stack = () => ws(2, new Error('probe').stack + '\\n'); process.stdout.write = (c, ...r) => { stack(); return w(c, ...r); }; fs.writeSync = (fd, ...a) => { if (fd === 1) stack(); return ws(fd, ...a); };\n");
});
afterAll(() => tmp.cleanup());

describe('the compile cache shared by two installs', () => {
  it('keys entries by the install, so each install runs code compiled under its own path', async () => {
    const a = await install(join(tmp.path, 'a'));
    const b = await install(join(tmp.path, 'b'));
    await versionStack(a); // compiles, writes a's entry
    await versionStack(b); // must not take a's entry
    const fromCache = await versionStack(b); // b's own entry
    expect(fromCache).toContain(join(tmp.path, 'b', 'dist', 'mailroom.cjs'));
    expect(fromCache).not.toContain(join(tmp.path, 'a', 'dist', 'mailroom.cjs'));
    expect((await readdir(cache)).filter((f) => f.endsWith('.v8'))).toHaveLength(2);
  });

  it('writes the entry of a run that ends the process itself (--version, --help exit inside yargs)', async () => {
    const dir = join(tmp.path, 'own-exit');
    const bin = await install(join(tmp.path, 'c'));
    for (const flag of ['--version', '--help']) {
      const own = join(dir, flag.slice(2));
      await new Promise<void>((resolve, reject) => execFile(process.execPath, [bin, flag], { env: { ...process.env, MAILROOM_COMPILE_CACHE: own } }, (err) => (err ? reject(err) : resolve())));
      expect((await readdir(own)).filter((f) => f.endsWith('.v8')), flag).toHaveLength(1);
    }
  });
});
