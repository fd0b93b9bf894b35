/**
 * The bundles' module graph as scripts/bundle-cli.mjs writes it (dist/mailroom.meta.json, esbuild's
 * metafile), and what a start reaches through it.
 */

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
