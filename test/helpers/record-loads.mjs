// Module hooks for start-up tests: prints "LOADED <what>" on stderr for every module a process
// loads from node_modules, through import (ESM resolve hook) or require (CommonJS loader), so a
// test sees what a CLI verb really loads. Use: node --import <this file> bin/mailroom.js …
import { register } from 'node:module';
import Module from 'node:module';

register(new URL(import.meta.url));

const load = Module._load;
Module._load = function recordingLoad(request, parent, isMain) {
  const loaded = load.call(this, request, parent, isMain);
  if (!request.startsWith('node:') && !Module.isBuiltin(request)) {
    const path = Module._resolveFilename(request, parent, isMain);
    if (path.includes('/node_modules/')) process.stderr.write(`LOADED ${path}\n`);
  }
  return loaded;
};

/** The resolve hook (runs in the loader thread). */
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.includes('/node_modules/')) process.stderr.write(`LOADED ${result.url}\n`);
  return result;
}
