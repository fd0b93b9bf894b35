/**
 * src/protocol/random.ts: random ids from /dev/urandom without node:crypto. Version-4 UUIDs in
 * the shape crypto.randomUUID makes, no byte handed out twice (across the 512-byte pool's refills
 * too), and a node:crypto-free start of a files `team send` (its ids come from here).
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUint32, randomUUID } from '../../../src/protocol/random.js';
import { BIN } from '../../helpers/cli.js';
import { cleanEnv, mailroomOk } from '../../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('random ids', () => {
  it('makes version-4 UUIDs, all different, with every other bit varying', () => {
    const ids = Array.from({ length: 5_000 }, () => randomUUID());
    for (const id of ids) expect(id).toMatch(V4);
    expect(new Set(ids).size).toBe(ids.length);
    // Each of the 122 random bits is set in some ids and clear in others (a stuck byte would show).
    const hex = ids.map((id) => id.replaceAll('-', ''));
    for (let digit = 0; digit < 32; digit++) {
      if (digit === 12) continue; // the version
      expect(new Set(hex.map((h) => h[digit])).size, `hex digit ${digit}`).toBeGreaterThan(digit === 16 ? 3 : 15);
    }
  });

  it('hands out no byte twice, across refills of the pool and for lengths beyond it', () => {
    const chunks = Array.from({ length: 300 }, (_, i) => randomBytes(1 + (i % 37)));
    expect(chunks.map((c) => c.length)).toEqual(Array.from({ length: 300 }, (_, i) => 1 + (i % 37)));
    const big = randomBytes(4_096);
    expect(big.length).toBe(4_096);
    // 8-byte windows never repeat: a pool handed out twice would repeat whole runs.
    const seen = new Set<string>();
    for (const c of [...chunks.filter((c) => c.length >= 8), big.subarray(0, 8), big.subarray(4_088)]) {
      const key = c.subarray(0, 8).toString('hex');
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
    expect(big.equals(Buffer.alloc(4_096))).toBe(false);
  });

  it('makes 32-bit integers over the whole range', () => {
    const values = Array.from({ length: 2_000 }, () => randomUint32());
    for (const v of values) expect(Number.isInteger(v) && v >= 0 && v < 2 ** 32).toBe(true);
    expect(values.some((v) => v >= 2 ** 31)).toBe(true);
    expect(values.some((v) => v < 2 ** 31)).toBe(true);
  });
});

describe('a files team send', () => {
  let tmp: TempDir;
  beforeAll(async () => {
    tmp = await makeTempDir('mailroom-random-');
    await mailroomOk(tmp.path, 'team', 'create', 'demo');
    await mailroomOk(tmp.path, 'team', 'spawn', 'alice');
  });
  afterAll(() => tmp.cleanup());

  it('starts without node:crypto, perf_hooks or the stream modules, and prints its msg_id', async () => {
    const probe = join(tmp.path, 'probe.cjs');
    await writeFile(probe, "process.on('exit', () => require('fs').writeFileSync(process.env.PROBE_OUT, process.moduleLoadList.join('\\n')));\n");
    const out = join(tmp.path, 'modules.txt');
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--require', probe, BIN, '--root', tmp.path, 'team', 'send', 'alice', 'hi'], { env: { ...cleanEnv(), PROBE_OUT: out } }, (err, o, e) => (err ? reject(new Error(e)) : resolve(o))),
    );
    expect(stdout).toMatch(/^Sent to alice at .* \(msg_id [0-9a-f-]{36}\)\n$/);
    expect(V4.test(/msg_id ([0-9a-f-]{36})/.exec(stdout)![1]!)).toBe(true);
    const loaded = (await readFile(out, 'utf8')).split('\n');
    expect(loaded.filter((m) => /^NativeModule (crypto|perf_hooks|stream|net|tty)$/.test(m))).toEqual([]);
  });
});
