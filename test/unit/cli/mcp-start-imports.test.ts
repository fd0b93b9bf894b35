/**
 * `mailroom mcp` evaluates no ajv, zod v3 or the v3 JSON-schema converter before it answers
 * (issue 24, "the MCP server likewise"): scripts/bundle-cli.mjs gives the MCP SDK stubs for them
 * that load the real module on first use. Checked in the bundle's module graph
 * (dist/mailroom.meta.json), not by timing: from the mcp handler, following static imports and
 * requires except the stubs' own deferred require of the real module.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBundleMeta, staticClosure, type BundleMeta } from '../../helpers/bundle-graph.js';

const META = fileURLToPath(new URL('../../../dist/mailroom.meta.json', import.meta.url));

type Meta = Pick<BundleMeta, 'inputs'>;

/** Inputs reached from `starts` at load: static imports and requires, not dynamic imports nor a stub's deferred require. */
function loadClosure(meta: Meta, starts: readonly string[]): Set<string> {
  return staticClosure(meta, starts, (path) => path.startsWith('lazy-sdk:')).inputs;
}

describe('the MCP server start loads the SDK without its unused parts', () => {
  let meta: Meta;
  let closure: Set<string>;
  beforeAll(async () => {
    meta = await readBundleMeta(META);
    const handler = (meta.inputs['src/cli/commands/mcp.ts']?.imports ?? []).filter((i) => i.kind === 'dynamic-import').map((i) => i.path);
    closure = loadClosure(meta, ['src/cli/main.ts', ...handler]);
  });

  it('reaches the MCP server (the graph is read right) and the three stubs', () => {
    expect(closure.has('node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js')).toBe(true);
    expect([...closure].filter((p) => p.startsWith('lazy-sdk:')).sort()).toEqual(['lazy-sdk:../validation/ajv-provider.js', 'lazy-sdk:zod-to-json-schema', 'lazy-sdk:zod/v3']);
  });

  it('evaluates no ajv, ajv-formats, zod v3 or zod-to-json-schema at start', () => {
    expect([...closure].filter((p) => /^node_modules\/(ajv|ajv-formats|fast-uri|zod-to-json-schema|zod\/v3)\//.test(p) || p === 'node_modules/@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.js')).toEqual([]);
  });

  it('each stub defers to the real module (the ES build the SDK would have imported)', () => {
    const real = (stub: string) => meta.inputs[stub]?.imports.map((i) => `${i.kind} ${i.path}`);
    expect(real('lazy-sdk:zod/v3')).toEqual(['require-call node_modules/zod/v3/index.js']);
    expect(real('lazy-sdk:zod-to-json-schema')).toEqual(['require-call node_modules/zod-to-json-schema/dist/esm/index.js']);
    expect(real('lazy-sdk:../validation/ajv-provider.js')).toEqual(['require-call node_modules/@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.js']);
  });
});
