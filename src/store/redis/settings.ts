/**
 * Team settings in Redis: one hash per generation (`<gen>settings`: `doc`, `ver`), read by
 * read-settings.lua and changed by update-settings.lua (compare-and-set on `ver`, with its
 * `settings` event). The patch itself is the shared domain step (src/domain/settings.ts).
 */
import { applySettingsPatch, type SettingsChange } from '../../domain/settings.js';
import { versionOfKind } from '../../protocol/events.js';
import { TeamSettingsSchema, defaultSettings, type SettingsPatch, type TeamSettings } from '../../protocol/settings.js';
import { MailroomError } from '../../errors.js';
import type { OpContext, Transition } from '../team-store.js';
import { envOf, runOnce, runTeamScript, untilSet, type RedisContext } from './context.js';

async function readRow(rc: RedisContext, team: string): Promise<{ settings: TeamSettings; ver: string }> {
  const [doc, ver] = (await runOnce(rc, 'read-settings', team, [])).value as [string, string];
  if (doc === '') return { settings: defaultSettings(), ver };
  let raw: unknown;
  try {
    raw = JSON.parse(doc);
  } catch {
    raw = undefined;
  }
  const parsed = TeamSettingsSchema.safeParse(raw);
  if (!parsed.success) throw new MailroomError('FILE_CORRUPT', `The settings of team "${team}" in ${rc.location} do not parse as mailroom settings: fix or remove the key.`, { details: { team } });
  return { settings: raw as TeamSettings, ver };
}

/** The team's settings. @throws TEAM_NOT_FOUND, FILE_CORRUPT */
export async function readSettings(rc: RedisContext, team: string): Promise<TeamSettings> {
  return (await readRow(rc, team)).settings;
}

/** Applies a settings patch (compare-and-set). */
export async function updateSettings(rc: RedisContext, team: string, patch: SettingsPatch, ctx?: OpContext): Promise<Transition<SettingsChange>> {
  return untilSet('updateSettings', async () => {
    const row = await readRow(rc, team);
    const change = applySettingsPatch(row.settings, patch);
    if (change.changed.length === 0) return { value: change, events: [] };
    const env = JSON.stringify({ ...(JSON.parse(envOf(team, ctx)) as Record<string, unknown>), v: versionOfKind('settings') });
    const out = await runTeamScript(rc, 'update-settings', team, [env, row.ver, JSON.stringify(change.settings), change.changed.join(',')]);
    return out === 'retry' ? out : { value: change, events: out.events };
  });
}
