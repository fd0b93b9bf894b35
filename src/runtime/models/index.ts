/**
 * The model factory: `--model kind:name` → a {@link Model}. Kinds: `worker` (default, offline),
 * `scripted:<file>`, `command:<command line>`, `anthropic:<model>`, `openai:<model>`. The SDK
 * adapters are imported only when asked for, so the runtime loads without them.
 */
import { parseModelSpec, type ModelSpec } from '../../protocol/model-spec.js';
import type { HostStore } from '../../store/host-store.js';
import { localHostStore } from '../../store/open.js';
import type { Model } from './types.js';

export { MODEL_KINDS, parseModelSpec, type ModelKind, type ModelSpec } from '../../protocol/model-spec.js';

/**
 * Creates the model for a spec string or parsed spec. A `scripted:` file is read through `host`
 * (default: this machine's host store at the default root).
 * @throws INVALID_ARGUMENT (bad spec, missing script file), MODEL_ERROR (e.g. no API key)
 */
export async function createModel(spec: string | ModelSpec | undefined, host?: Pick<HostStore, 'readUserFile'>): Promise<Model> {
  const { kind, name } = typeof spec === 'object' ? spec : parseModelSpec(spec);
  switch (kind) {
    case 'worker':
      return (await import('./worker.js')).createWorkerModel();
    case 'scripted':
      return (await import('./scripted.js')).loadScriptedModel(name, host ?? localHostStore());
    case 'command':
      return (await import('./command.js')).createCommandModel({ command: name });
    case 'anthropic':
      return (await import('./anthropic.js')).createAnthropicModel({ name });
    case 'openai':
      return (await import('./openai.js')).createOpenAIModel({ name });
  }
}
