/**
 * The team config read once per command and passed down (issue 20): a use case that takes
 * {@link KnownConfig} uses the caller's config instead of reading it again. The CLI reads it with
 * {@link withConfig} right after resolving the team.
 */
import type { TeamConfig } from '../../protocol/config.js';
import { teamOf, type TeamOptions } from '../context.js';

/** Options of a use case that can use a config its caller already read in this command. */
export interface KnownConfig {
  /** The team's config as read earlier in this command; default: read by the use case. */
  config?: TeamConfig | undefined;
}

/** The options' known config, or the config read now. @throws TEAM_NOT_FOUND, FILE_CORRUPT */
export async function configOf(options: TeamOptions & KnownConfig): Promise<TeamConfig> {
  return options.config ?? (await teamOf(options).readConfig(options.team));
}

/** The options with the team's config read once, for the use cases a command calls next. @throws TEAM_NOT_FOUND, FILE_CORRUPT */
export async function withConfig<T extends TeamOptions>(options: T): Promise<T & { config: TeamConfig }> {
  return { ...options, config: await teamOf(options).readConfig(options.team) };
}
