/**
 * The model a view shows for a member. `"unknown"` is the placeholder recorded when no model is
 * known — the lead (`team create` without `--lead-model`: usually a human or an outside agent) and a
 * member an MCP client registers (mailroom cannot see the client's model) — so views leave it out
 * as they leave out any absent field; `--json` output keeps the stored value.
 */

/** The placeholder model id written when none is known (team-lifecycle.ts, mcp/join.ts). */
export const UNKNOWN_MODEL = 'unknown';

/** `model`, or undefined when it is absent, empty or the {@link UNKNOWN_MODEL} placeholder. */
export function knownModel(model: string | undefined): string | undefined {
  return model === undefined || model === '' || model === UNKNOWN_MODEL ? undefined : model;
}
