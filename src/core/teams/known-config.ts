/**
 * The team config read once per command and passed down (issue 20): a use case that takes
 * {@link KnownConfig} uses the caller's config instead of reading it again. The CLI reads it with
 * {@link withConfig} right after resolving the team, and the team's settings beside it: a send
 * needs both, and read together they cost one store round trip instead of two (issue 24).
 */
import type { TeamConfig } from '../../protocol/config.js';
import type { TeamSettings } from '../../protocol/settings.js';
import { teamOf, type TeamOptions } from '../context.js';

/** Options of a use case that can use a config (and settings) its caller already read in this command. */
export interface KnownConfig {
  /** The team's config as read earlier in this command; default: read by the use case. */
  config?: TeamConfig | undefined;
  /** The team's settings (`mailroom-settings.json`) read beside that config; default: read by the use case when it needs them. */
  settings?: TeamSettings | undefined;
}

/** The options' known config, or the config read now. @throws TEAM_NOT_FOUND, FILE_CORRUPT */
export async function configOf(options: TeamOptions & KnownConfig): Promise<TeamConfig> {
  return options.config ?? (await teamOf(options).readConfig(options.team));
}

/**
 * The options with the team's config and settings read once, together (one round trip on Redis),
 * for the use cases a command calls next. @throws TEAM_NOT_FOUND, FILE_CORRUPT
 */
export async function withConfig<T extends TeamOptions>(options: T): Promise<T & { config: TeamConfig; settings: TeamSettings }> {
  return { ...options, ...(await configAndSettingsOf(options)) };
}

/**
 * The options' known config and settings, or those read now, both at once (the config's error,
 * if any, is the one thrown). @throws TEAM_NOT_FOUND, FILE_CORRUPT
 */
export async function configAndSettingsOf(options: TeamOptions & KnownConfig): Promise<{ config: TeamConfig; settings: TeamSettings }> {
  const settings = options.settings !== undefined ? Promise.resolve(options.settings) : teamOf(options).readSettings(options.team);
  settings.catch(() => undefined); // awaited below; the config's error (TEAM_NOT_FOUND) is reported first, as when read one after the other
  const config = await configOf(options);
  return { config, settings: await settings };
}
