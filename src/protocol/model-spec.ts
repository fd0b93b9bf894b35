/**
 * The `--model` value, `kind:name`, as stored in a member's `model` in config.json and passed to
 * `mailroom agent --model`. Parsing it needs no SDK and no API key, so registering a member
 * (core/members/spawn.ts) checks it before writing anything; the model factory (runtime/models/index.ts)
 * creates the model from the parsed spec.
 */
import { MailroomError } from '../errors.js';

/** The model kinds `--model` accepts. */
export const MODEL_KINDS = ['worker', 'scripted', 'command', 'anthropic', 'openai'] as const;

/** One of {@link MODEL_KINDS}. */
export type ModelKind = (typeof MODEL_KINDS)[number];

/** A parsed `--model` value. `name` is the part after the first `:` (empty for a bare `worker`). */
export interface ModelSpec {
  kind: ModelKind;
  name: string;
}

/**
 * Parses `kind:name` (a bare `worker`, or nothing, means the worker; a bare `claude-…` id, as
 * Claude Code 2.1.109 stores in config.json members, means `anthropic:<id>`).
 * @throws INVALID_ARGUMENT for an unknown kind or a missing name
 */
export function parseModelSpec(spec: string | undefined): ModelSpec {
  const text = (spec ?? '').trim();
  if (text === '' || text === 'worker') return { kind: 'worker', name: '' };
  // A bare Claude model id, as Claude Code writes in a member's `model`, is an Anthropic model.
  if (/^claude-[\w.-]+$/.test(text)) return { kind: 'anthropic', name: text };
  const colon = text.indexOf(':');
  const kind = colon < 0 ? text : text.slice(0, colon);
  const name = colon < 0 ? '' : text.slice(colon + 1).trim();
  if (!(MODEL_KINDS as readonly string[]).includes(kind)) {
    throw new MailroomError('INVALID_ARGUMENT', `Unknown model "${text}": use kind:name with kind one of ${MODEL_KINDS.join(', ')} (e.g. worker, anthropic:claude-sonnet-4-5, 'command:claude -p').`, {
      details: { model: text, kinds: MODEL_KINDS },
    });
  }
  if (name === '' && kind !== 'worker') {
    throw new MailroomError('INVALID_ARGUMENT', `Model "${text}" needs a name after the colon, e.g. ${example(kind as ModelKind)}.`, { details: { model: text } });
  }
  return { kind: kind as ModelKind, name };
}

function example(kind: ModelKind): string {
  return { worker: 'worker', scripted: 'scripted:turns.yaml', command: "'command:claude -p'", anthropic: 'anthropic:claude-sonnet-4-5', openai: 'openai:gpt-4o-mini' }[kind];
}
