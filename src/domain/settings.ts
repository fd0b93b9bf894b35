/**
 * Changing team settings (src/protocol/settings.ts): the one pure step both backends apply inside
 * their `updateSettings` transition, so the same patch gives the same document and the same
 * `changed` keys everywhere.
 */
import { MailroomError } from '../errors.js';
import { POLICY_RULES, TeamSettingsSchema, type SettingsPatch, type TeamSettings } from '../protocol/settings.js';

/** What a patch does: the new document and the top-level keys whose value changed (sorted). */
export interface SettingsChange {
  settings: TeamSettings;
  changed: string[];
}

/**
 * Applies `patch` to `current` (keys set, `null` removes; unknown keys of `current` kept in place);
 * `policy.<rule>` and `policy.message.<sender>` keys change that one rule (protocol/settings.ts).
 * @throws INVALID_ARGUMENT when the result is not a valid settings document (naming the field), or
 * a `policy.` key names no rule
 */
export function applySettingsPatch(current: TeamSettings, patch: SettingsPatch): SettingsChange {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (key.startsWith('policy.')) patchRule(next, key, value as string[] | null);
    else if (value === null) delete next[key];
    else next[key] = value;
  }
  const parsed = TeamSettingsSchema.safeParse(next);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MailroomError('INVALID_ARGUMENT', `Invalid team settings: ${issue?.path.join('.') || '(top level)'}: ${issue?.message ?? 'invalid'}.`, {
      details: { issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) },
    });
  }
  const keys = new Set([...Object.keys(current), ...Object.keys(next)]);
  const changed = [...keys].filter((k) => JSON.stringify((current as Record<string, unknown>)[k]) !== JSON.stringify(next[k])).sort();
  return { settings: next as TeamSettings, changed };
}

const MESSAGE_PREFIX = 'policy.message.';

/** Sets (or with `null` removes) one policy rule of `doc` in place, dropping a map left empty. */
function patchRule(doc: Record<string, unknown>, key: string, who: string[] | null): void {
  const policy: Record<string, unknown> = { ...((doc.policy as Record<string, unknown> | undefined) ?? {}) };
  if (key.startsWith(MESSAGE_PREFIX) && key.length > MESSAGE_PREFIX.length) {
    const message: Record<string, unknown> = { ...((policy.message as Record<string, unknown> | undefined) ?? {}) };
    const sender = key.slice(MESSAGE_PREFIX.length);
    if (who === null) delete message[sender];
    else message[sender] = who;
    if (Object.keys(message).length > 0) policy.message = message;
    else delete policy.message;
  } else {
    const rule = key.slice('policy.'.length);
    if (rule === 'message' || !(POLICY_RULES as readonly string[]).includes(rule)) {
      throw new MailroomError('INVALID_ARGUMENT', `Unknown policy rule "${rule}" in settings patch key "${key}": use policy.<${POLICY_RULES.filter((r) => r !== 'message').join('|')}> or policy.message.<sender>.`);
    }
    if (who === null) delete policy[rule];
    else policy[rule] = who;
  }
  if (Object.keys(policy).length > 0) doc.policy = policy;
  else delete doc.policy;
}
