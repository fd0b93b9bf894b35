/**
 * Changing team settings (src/protocol/settings.ts): the one pure step both backends apply inside
 * their `updateSettings` transition, so the same patch gives the same document and the same
 * `changed` keys everywhere.
 */
import { MailroomError } from '../errors.js';
import { TeamSettingsSchema, type SettingsPatch, type TeamSettings } from '../protocol/settings.js';

/** What a patch does: the new document and the top-level keys whose value changed (sorted). */
export interface SettingsChange {
  settings: TeamSettings;
  changed: string[];
}

/**
 * Applies `patch` to `current` (keys set, `null` removes; unknown keys of `current` kept in place).
 * @throws INVALID_ARGUMENT when the result is not a valid settings document (naming the field)
 */
export function applySettingsPatch(current: TeamSettings, patch: SettingsPatch): SettingsChange {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
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
