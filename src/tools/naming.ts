/**
 * Per-surface argument names, derived from an entry's one schema: the runtime uses the canonical
 * (camelCase, Claude Code's) names, MCP their snake_case form, unless the entry renames an argument
 * for a surface (`taskId` is `id` over MCP). A surface's schema is the entry's schema with its keys
 * renamed — the same field schemas, so both surfaces accept and refuse the same values.
 */
import { z } from 'zod';
import type { ToolEntry } from './entry.js';
import type { Surface } from './types.js';

/** A JSON schema object. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** `activeForm` → `active_form`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The name of argument `key` (canonical) on `surface`. */
export function argName(entry: ToolEntry, surface: Surface, key: string): string {
  return entry.args[surface]?.[key] ?? (surface === 'mcp' ? snakeCase(key) : key);
}

const schemas = new WeakMap<ToolEntry, Map<Surface, z.ZodObject>>();

/**
 * The entry's input schema with `surface`'s argument names.
 * @throws Error when two arguments have the same name on `surface`
 */
export function surfaceSchema(entry: ToolEntry, surface: Surface): z.ZodObject {
  let bySurface = schemas.get(entry);
  if (!bySurface) schemas.set(entry, (bySurface = new Map()));
  const cached = bySurface.get(surface);
  if (cached) return cached;
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(entry.input.shape)) {
    const name = argName(entry, surface, key);
    if (Object.hasOwn(shape, name)) throw new Error(`Tool ${entry.id}: two arguments are called "${name}" on ${surface}.`);
    shape[name] = field as z.ZodType;
  }
  const schema = z.object(shape);
  bySurface.set(surface, schema);
  return schema;
}

/** Renames validated `surface` arguments back to the canonical names (unknown keys are dropped). */
export function toCanonical(entry: ToolEntry, surface: Surface, args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(entry.input.shape)) {
    const name = argName(entry, surface, key);
    if (Object.hasOwn(args, name)) input[key] = args[name];
  }
  return input;
}

const jsonSchemas = new WeakMap<ToolEntry, Map<Surface, JsonSchema>>();

/** The JSON schema of the entry's input on `surface` (what a caller sends: zod's input side), without `$schema`. */
export function inputJsonSchema(entry: ToolEntry, surface: Surface): JsonSchema {
  let bySurface = jsonSchemas.get(entry);
  if (!bySurface) jsonSchemas.set(entry, (bySurface = new Map()));
  const cached = bySurface.get(surface);
  if (cached) return cached;
  const { $schema: _ignored, ...rest } = z.toJSONSchema(surfaceSchema(entry, surface), { io: 'input' }) as Record<string, unknown>;
  bySurface.set(surface, rest);
  return rest;
}
