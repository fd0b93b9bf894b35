/**
 * The bundles' module graph as scripts/bundle-cli.mjs writes it (dist/mailroom.meta.json, esbuild's
 * metafile), and what a start reaches through it.
 */
import { readFile } from 'node:fs/promises';

/** The part of esbuild's metafile the tests read. */
export interface BundleMeta {
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

/**
 * Inputs reached from `starts` through static imports and requires (not dynamic imports), and the
 * externals they name. `deferred`: inputs whose own imports run later (a lazy stub's require on
 * first use): reached, not followed.
 */
export function staticClosure(meta: Pick<BundleMeta, 'inputs'>, starts: readonly string[], deferred: (path: string) => boolean = () => false): { inputs: Set<string>; externals: Set<string> } {
  const inputs = new Set<string>();
  const externals = new Set<string>();
  const stack = [...starts];
  while (stack.length > 0) {
    const path = stack.pop() as string;
    if (inputs.has(path)) continue;
    inputs.add(path);
    if (deferred(path)) continue;
    for (const i of meta.inputs[path]?.imports ?? []) {
      if (i.kind === 'dynamic-import') continue;
      if (i.external) externals.add(i.path);
      else stack.push(i.path);
    }
  }
  return { inputs, externals };
}

/**
 * A package's path as a clone's build records it (`node_modules/zod/v3/index.js`). esbuild names an
 * input relative to the working directory after resolving symlinks, so in a git worktree whose
 * node_modules is a symlink to another checkout's it records `../../main/node_modules/zod/…`: the
 * part up to the first `node_modules/` is dropped from a path that leaves the checkout (`../`).
 */
export function checkoutPath(path: string): string {
  return path.replace(/^(?:\.\.\/)+(?:[^/]+\/)*?node_modules\//, 'node_modules/');
}

/** Reads an esbuild metafile with every input path (keys and imports) as {@link checkoutPath} gives it. */
export async function readBundleMeta(file: string): Promise<BundleMeta> {
  const raw = JSON.parse(await readFile(file, 'utf8')) as BundleMeta;
  const inputs: BundleMeta['inputs'] = {};
  for (const [path, input] of Object.entries(raw.inputs)) {
    inputs[checkoutPath(path)] = { ...input, imports: input.imports.map((i) => (i.external ? i : { ...i, path: checkoutPath(i.path) })) };
  }
  const outputs: BundleMeta['outputs'] = {};
  for (const [path, output] of Object.entries(raw.outputs)) {
    outputs[path] = { ...output, inputs: Object.fromEntries(Object.entries(output.inputs).map(([k, v]) => [checkoutPath(k), v])) };
  }
  return { inputs, outputs };
}
