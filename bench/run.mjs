#!/usr/bin/env node
// `npm run bench` (builds first): runs every bench/*.bench.mjs module in name order and prints ONE
// markdown table, each figure beside a baseline measured in the same run, then the machine.
// `node bench/run.mjs --quick` uses fewer repetitions; `--only <name>` runs matching modules.
//
// A bench module (see bench/README.md) default-exports `async (ctx) => Row[]`, where
//   Row = { metric: string, value: number, unit: string,
//           baseline?: { label: string, value: number }, note?: string,
//           goal?: string (e.g. '≤ 1.5×'), load?: number (default: the 1-min load average when the module ended) }
// and ctx = { quick: boolean, tempRoot(): Promise<string>, log(line: string): void }.
import { readdir } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { machine } from './lib/machine.mjs';
import { renderTable } from './lib/table.mjs';

const dir = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const temps = [];
const ctx = {
  quick: args.includes('--quick'),
  tempRoot: async () => {
    const path = await mkdtemp(join(tmpdir(), 'mailroom-bench-'));
    temps.push(path);
    return path;
  },
  log: (line) => process.stderr.write(`  ${line}\n`),
};

const startLoad = loadavg().map((l) => l.toFixed(2)).join(' ');
const modules = (await readdir(dir)).filter((f) => f.endsWith('.bench.mjs') && (!only || f.includes(only))).sort();
const rows = [];
try {
  for (const file of modules) {
    process.stderr.write(`bench: ${file} (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})\n`);
    const mod = await import(pathToFileURL(join(dir, file)).href);
    const made = await mod.default(ctx);
    const load = loadavg()[0];
    rows.push(...made.map((r) => ({ load, ...r })));
  }
} finally {
  for (const t of temps) await rm(t, { recursive: true, force: true });
}
process.stdout.write(`Load average at start: ${startLoad}.\n\n${renderTable(rows)}\n\n${await machine()}\n`);
