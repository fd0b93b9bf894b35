/**
 * zod fields shared by the catalogue's tools. Task ids are decimal strings on disk; callers may
 * send numbers, which are accepted and turned into strings.
 */
import { z } from 'zod';
import { TASK_STATUSES } from '../protocol/task.js';

/** A task id: `"3"` or `3`. */
export const taskId = z
  .union([z.string().regex(/^[1-9][0-9]*$/, 'a task id is a positive decimal integer'), z.number().int().positive()])
  .transform((v) => String(v));

/** A list of task ids. */
export const taskIds = z.array(taskId);

/** A stored status. */
export const status = z.enum(TASK_STATUSES);

const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype'];

/**
 * Free-form metadata; on update a `null` value deletes the key. Keys that name object internals
 * are refused here, before zod rebuilds the object (which would silently drop an own `__proto__`).
 */
export const metadata = z.preprocess((value, ctx) => {
  const bad = typeof value === 'object' && value !== null ? FORBIDDEN_KEYS.find((k) => Object.prototype.hasOwnProperty.call(value, k)) : undefined;
  if (bad === undefined) return value;
  ctx.addIssue({ code: 'custom', message: `the key "${bad}" cannot be used in metadata: rename it` });
  return z.NEVER;
}, z.record(z.string(), z.unknown()));

/** A message preview. */
export const summary = z.string().optional().describe('5–10 word preview shown to the recipient');

/** The requestId of a shutdown_request, echoed unchanged. */
export const requestId = z.string().min(1).describe('The requestId of the shutdown_request, copied exactly');

/** A retry-safe key: a second call with it (within 24 h, also racing the first) stores nothing new and returns the first call's result. */
export const idempotencyKey = z.string().min(1).max(200).optional().describe('Retry-safe key: a second call with the same key stores nothing new and returns the first result');
