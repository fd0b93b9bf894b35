/**
 * `--to-capability` of `team send` and `team ask`: the recipient chosen by capability
 * (core/messages/route.ts, loaded only when the option is given).
 */
import { MailroomError } from '../errors.js';
import type { Stores } from '../store/selection.js';
import type { TeamConfig } from '../protocol/config.js';

/**
 * Resolves `--to-capability` into the recipient (core/messages/route.ts), in place: the one positional given
 * is then the text. @throws USAGE when a recipient is named too, or with a protocol message
 */
export async function routed(a: { to: string; text?: string | undefined; as?: string | undefined; 'to-capability'?: string | undefined; 'shutdown-request'?: boolean; structured?: string }, target: { root: Stores; team: string; config?: TeamConfig }) {
  if (a.text !== undefined) throw new MailroomError('USAGE', `Give either a recipient or --to-capability, not both: "${a.to}" and --to-capability ${a['to-capability']}. With --to-capability the one argument is the text.`);
  if (a['shutdown-request'] || a.structured !== undefined) throw new MailroomError('INVALID_ARGUMENT', '--to-capability goes with a plain message only.');
  const { routeByCapability } = await import('../core/messages/route.js');
  const route = await routeByCapability({ ...target, capability: a['to-capability']!, from: a.as });
  a.text = a.to;
  a.to = route.to;
  return route;
}

