// Module hooks for import-cost tests: prints "LOADED <url>" on stderr for every heavy package a
// process resolves (model SDKs, chokidar, ink, react). Use: node --import <this file> …
import { register } from 'node:module';

register(new URL(import.meta.url));

/** The resolve hook (runs in the loader thread). */
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (/node_modules\/(@anthropic-ai|openai|chokidar|ink|react)\//.test(result.url)) process.stderr.write(`LOADED ${result.url}\n`);
  return result;
}
