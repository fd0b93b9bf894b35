/**
 * The runtime loads no model SDK (nor chokidar, ink, react) on import or for offline models:
 * adapters are imported by createModel only when a teammate uses them. Runs over dist/ in a child
 * process whose module hooks report every heavy package resolved.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HOOKS = fileURLToPath(new URL('../../helpers/load-hooks.mjs', import.meta.url));
const ENTRY = new URL('../../../dist/index.js', import.meta.url).href;

function loaded(script: string): Promise<string[]> {
  const code = `const m = await import(${JSON.stringify(ENTRY)}); ${script}`;
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--import', HOOKS, '--input-type=module', '-e', code], { env: { ...process.env, ANTHROPIC_API_KEY: 'test-key' } }, (err, _out, stderr) =>
      err ? reject(err) : resolve([...new Set([...stderr.matchAll(/^LOADED .*node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((x) => x[1]!))]),
    ),
  );
}

describe('lazy loading', () => {
  it('imports the package and creates offline models without loading an SDK', async () => {
    expect(await loaded(`await m.createModel('worker'); await m.createModel('command:cat');`)).toEqual([]);
  });

  it('loads the Anthropic SDK only when an anthropic model is created', async () => {
    expect(await loaded(`await m.createModel('anthropic:claude-sonnet-4-5');`)).toEqual(['@anthropic-ai/sdk']);
  });
});
