/**
 * mailroom's version, read from package.json (next to both src/ and dist/, one level up from this module).
 */
import { createRequire } from 'node:module';

/** The `version` field of mailroom's package.json, e.g. `0.1.0`. */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
