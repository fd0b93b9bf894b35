/**
 * Parsers for CLI option values: id lists and `k=v` metadata.
 */
import { MailroomError } from '../errors.js';
import type { MetadataPatch } from '../core/tasks/board.js';

/** `"1,2 3"` → `["1","2","3"]`; each must be a positive integer. @throws INVALID_ARGUMENT */
export function parseIds(value: string | string[] | number | undefined, flag: string): string[] | undefined {
  if (value === undefined) return undefined;
  const parts = (Array.isArray(value) ? value : [String(value)]).flatMap((v) => String(v).split(/[,\s]+/)).filter((v) => v !== '');
  for (const p of parts) {
    if (!/^[1-9][0-9]*$/.test(p)) throw new MailroomError('INVALID_ARGUMENT', `${flag}: "${p}" is not a task id (ids are positive integers, e.g. ${flag} 1,2).`);
  }
  return parts;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * `["k=v", "n=3", "gone=null"]` → `{k:"v", n:3, gone:null}`. Values that parse as JSON (numbers,
 * booleans, null, objects) are taken as JSON, anything else as a string. @throws INVALID_ARGUMENT
 */
export function parseMetadata(pairs: string | string[] | undefined): MetadataPatch | undefined {
  if (pairs === undefined) return undefined;
  const out: MetadataPatch = {};
  for (const pair of Array.isArray(pairs) ? pairs : [pairs]) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new MailroomError('INVALID_ARGUMENT', `--metadata "${pair}": use key=value (key=null deletes a key).`);
    const key = pair.slice(0, eq);
    if (FORBIDDEN_KEYS.has(key)) throw new MailroomError('INVALID_ARGUMENT', `--metadata: "${key}" cannot be used as a key.`);
    Object.defineProperty(out, key, { value: jsonOrString(pair.slice(eq + 1)), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function jsonOrString(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
