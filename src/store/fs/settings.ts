/**
 * Team settings on disk: `teams/<teamDir>/mailroom-settings.json` (docs/format.md), changed under
 * its own lock with its `settings` journal line. A document that does not parse is never
 * overwritten: reads and changes refuse with FILE_CORRUPT until it is fixed.
 */
import { settingsEvent } from '../../domain/events.js';
import { applySettingsPatch, type SettingsChange } from '../../domain/settings.js';
import { TeamSettingsSchema, defaultSettings, type SettingsPatch, type TeamSettings } from '../../protocol/settings.js';
import { MailroomError } from '../../errors.js';
import { corruptFile, readJsonFile, writeJsonFile } from './json-file.js';
import type { OpContext, Transition } from '../team-store.js';
import { locked, stampOf, type FsContext } from './context.js';
import { journal } from './journal.js';
import { readConfig } from './teams.js';

async function readAt(path: string): Promise<TeamSettings> {
  const read = await readJsonFile(path).catch((err: unknown) => {
    throw err instanceof MailroomError && err.code === 'FILE_CORRUPT' ? byHand(err) : err;
  });
  if (read.state === 'missing') return defaultSettings();
  const parsed = TeamSettingsSchema.safeParse(read.value);
  if (!parsed.success) throw byHand(corruptFile(path, parsed.error, `is not a mailroom settings document (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? 'invalid'})`));
  return read.value as TeamSettings;
}

/** A corrupt settings file's FILE_CORRUPT says it is restored by hand: `doctor --fix` does not move it aside (the team would run open and unsigned). */
function byHand(err: MailroomError): MailroomError {
  const message = err.message.replace(
    /Inspect or move the file aside \(`mailroom doctor --fix` quarantines it\), then retry\.$/,
    "Restore it by hand — from a backup, or by fixing its JSON — then retry: `mailroom doctor --fix` leaves it alone, since without it the team's policy and signing would be dropped.",
  );
  return new MailroomError('FILE_CORRUPT', message, { cause: err.cause, details: err.details });
}

/** The team's settings. @throws TEAM_NOT_FOUND, FILE_CORRUPT */
export async function readSettings(ctx: FsContext, team: string): Promise<TeamSettings> {
  await readConfig(ctx, team);
  return readAt(ctx.layout.settingsPath(team));
}

/** Applies a settings patch under the settings file's lock. */
export async function updateSettings(ctx: FsContext, team: string, patch: SettingsPatch, op?: OpContext): Promise<Transition<SettingsChange>> {
  await readConfig(ctx, team);
  const path = ctx.layout.settingsPath(team);
  return locked(ctx, path, async (lock) => {
    const change = applySettingsPatch(await readAt(path), patch);
    if (change.changed.length === 0) return { value: change, events: [] };
    await writeJsonFile(path, change.settings, lock);
    const events = [settingsEvent(stampOf(team, op), change.changed)];
    await journal(ctx, team, events);
    return { value: change, events };
  });
}
