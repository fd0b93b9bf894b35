/**
 * The model factory: `--model kind:name` → a {@link Model}. Kinds: `worker` (default, offline),
 * `scripted:<file>`, `command:<command line>`, `anthropic:<model>`, `openai:<model>`. The SDK
 * adapters are imported only when asked for, so the runtime loads without them.
 */
import { MailroomError } from '../../errors.js';
import type { Model } from './types.js';

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
 * Parses `kind:name` (a bare `worker`, or nothing, means the worker).
 * @throws INVALID_ARGUMENT for an unknown kind or a missing name
 */
export function parseModelSpec(spec: string | undefined): ModelSpec {
  const text = (spec ?? '').trim();
  if (text === '' || text === 'worker') return { kind: 'worker', name: '' };
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

/**
 * Creates the model for a spec string or parsed spec.
 * @throws INVALID_ARGUMENT (bad spec, missing script file), MODEL_ERROR (e.g. no API key)
 */
export async function createModel(spec: string | ModelSpec | undefined): Promise<Model> {
  const { kind, name } = typeof spec === 'object' ? spec : parseModelSpec(spec);
  switch (kind) {
    case 'worker':
      return (await import('./worker.js')).createWorkerModel();
    case 'scripted':
      return (await import('./scripted.js')).loadScriptedModel(name);
    case 'command':
      return (await import('./command.js')).createCommandModel({ command: name });
    case 'anthropic':
      return (await import('./anthropic.js')).createAnthropicModel({ name });
    case 'openai':
      return (await import('./openai.js')).createOpenAIModel({ name });
  }
}

function example(kind: ModelKind): string {
  return { worker: 'worker', scripted: 'scripted:turns.yaml', command: "'command:claude -p'", anthropic: 'anthropic:claude-sonnet-4-5', openai: 'openai:gpt-4o-mini' }[kind];
}
