/**
 * The CLI bundles build the MCP SDK's protocol schemas on first use (scripts/lazy-sdk-types.mjs):
 * each top-level schema of the SDK's types.js becomes a lazySchema stand-in. The transformed
 * module must be the SDK's module in all but build time: the same exports, each schema of the same
 * kind and shape, parsing the same messages to the same results. The transformed text is loaded
 * here as a module of its own beside the SDK's real one and compared export by export.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script (plain ES module, no types)
import { lazySdkTypesSource } from '../../../scripts/lazy-sdk-types.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The ES module builds the CLI bundles take (esbuild resolves `import` conditions). */
const SDK_TYPES = join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'types.js');
const ZOD_V4 = join(ROOT, 'node_modules', 'zod', 'v4', 'index.js');
const LAZY_SCHEMA = fileURLToPath(new URL('../../../src/protocol/lazy-schema.ts', import.meta.url));

type Schema = { _zod: { def: { type: string; shape?: Record<string, unknown> } }; safeParse(v: unknown): { success: boolean; data?: unknown; error?: { issues: unknown[] } } };
type Module = Record<string, unknown>;

/** Messages a server sees and sends, valid and not. */
const SAMPLES: unknown[] = [
  { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_inbox', arguments: { limit: 5 }, _meta: { progressToken: 7 } } },
  { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'mailroom://team/members' } },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'x' } },
  { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 } } },
  { jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'bad' } },
  { protocolVersion: '2025-06-18', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 's', version: '1' } },
  { tools: [{ name: 't', inputSchema: { type: 'object' } }] },
  { jsonrpc: '1.0', id: 1, method: 'x' },
  { id: 'a', method: 5 },
  'text',
  null,
  [],
];

/** The copy has no source map beside it. */
const withoutSourceMap = (text: string) => text.replace(/^\/\/# sourceMappingURL=.*$/m, '');

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && '_zod' in v;

describe("the SDK's types.js with its schemas built on first use", () => {
  let dir: string;
  let real: Module;
  let lazy: Module;
  let wrapped: number;
  beforeAll(async () => {
    const text = await readFile(SDK_TYPES, 'utf8');
    const result = (await lazySdkTypesSource(text, SDK_TYPES, LAZY_SCHEMA)) as { text: string; count: number };
    wrapped = result.count;
    dir = await mkdtemp(join(tmpdir(), 'mailroom-lazy-types-'));
    // The same zod build the SDK's module imports (its ES module), by path: the copy lives outside node_modules.
    const file = join(dir, 'types.mjs');
    await writeFile(file, withoutSourceMap(result.text).replace(/from 'zod\/v4'/g, `from ${JSON.stringify(pathToFileURL(ZOD_V4).href)}`));
    real = (await import(pathToFileURL(SDK_TYPES).href)) as Module;
    lazy = (await import(pathToFileURL(file).href)) as Module;
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('wraps the schema declarations (the transform found them)', () => {
    const declared = Object.keys(real).filter((k) => k.endsWith('Schema'));
    expect(wrapped).toBeGreaterThan(100);
    expect(wrapped).toBeGreaterThan(declared.length * 0.8);
  });

  it('has the same exports', () => {
    expect(Object.keys(lazy).sort()).toEqual(Object.keys(real).sort());
  });

  it('each exported schema is of the same kind, with the same object keys, and parses every sample the same', () => {
    const schemas = Object.keys(real).filter((k) => isSchema(real[k]));
    expect(schemas.length).toBeGreaterThan(100);
    for (const name of schemas) {
      const a = real[name] as Schema;
      const b = lazy[name] as Schema;
      expect(isSchema(b), name).toBe(true);
      expect(b._zod.def.type, name).toBe(a._zod.def.type);
      expect(Object.keys(b._zod.def.shape ?? {}), name).toEqual(Object.keys(a._zod.def.shape ?? {}));
      for (const sample of SAMPLES) {
        const x = a.safeParse(sample);
        const y = b.safeParse(sample);
        expect({ success: y.success, data: y.data, issues: y.error?.issues }, `${name} ${JSON.stringify(sample)}`).toEqual({ success: x.success, data: x.data, issues: x.error?.issues });
      }
    }
  });

  it('builds nothing until a schema is used', async () => {
    // A fresh copy: every stand-in is still unbuilt, so loading it runs none of the schema calls.
    const text = (await lazySdkTypesSource(await readFile(SDK_TYPES, 'utf8'), SDK_TYPES, LAZY_SCHEMA)) as { text: string };
    const file = join(dir, 'counted.mjs');
    const counter = join(dir, 'counter.mjs');
    await writeFile(counter, `import * as z from ${JSON.stringify(pathToFileURL(ZOD_V4).href)};\nexport let built = 0;\nexport const counted = new Proxy(z, { get: (t, k) => { const v = Reflect.get(t, k); return typeof v === 'function' ? (...a) => { built++; return v(...a); } : v; } });\n`);
    await writeFile(file, withoutSourceMap(text.text).replace(/import \* as z from 'zod\/v4';/, `import { counted as z } from ${JSON.stringify(pathToFileURL(counter).href)};`));
    const module = (await import(pathToFileURL(file).href)) as Module;
    const count = (await import(pathToFileURL(counter).href)) as { built: number };
    const atLoad = count.built;
    expect(atLoad).toBeLessThan(5);
    (module.JSONRPCMessageSchema as Schema).safeParse(SAMPLES[0]);
    expect(count.built).toBeGreaterThan(atLoad);
  });
});
