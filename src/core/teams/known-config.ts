/**
 * The team config read once per command and passed down (issue 20): a use case that takes
 * {@link KnownConfig} uses the caller's config instead of reading it again. The CLI reads it with
 * {@link withConfig} right after resolving the team, and the team's settings beside it: a send
 * needs both, and read together they cost one store round trip instead of two (issue 24).
 */
import type { TeamConfig } from '../../protocol/config.js';
import type { TeamSettings } from '../../protocol/settings.js';
import { teamOf, type TeamOptions } from '../context.js';
import type { SenderView } from './sender-view.js';

/** Options of a use case that can use a config (and settings) its caller already read in this command. */
export interface KnownConfig {
  /** The team's config as read earlier in this command; default: read by the use case. */
  config?: TeamConfig | undefined;
  /** The team's settings (`mailroom-settings.json`) read beside that config; default: read by the use case when it needs them. */
  settings?: TeamSettings | undefined;
  /**
   * The store's view stamp ({@link TeamStore.viewStamp}) taken before that config and settings
   * were read (in one round trip with them: {@link withConfig}, or a kept view). A send made with it
   * has its append check, in the append's own step, that the team's view is still the one read
   * (else it reads again and retries: core/messages/send.ts), and need not read before appending.
   */
  viewStamp?: string | undefined;
  /**
   * A long-lived sender's kept view ({@link SenderView}): a send uses it instead of reading (one
   * round trip on Redis) and leaves there the view it had to read again. Takes precedence over
   * `config`, `settings` and `viewStamp`.
   */
  senderView?: SenderView | undefined;
}

/** The options' known config, or the config read now. @throws TEAM_NOT_FOUND, FILE_CORRUPT */
export async function configOf(options: TeamOptions & KnownConfig): Promise<TeamConfig> {
  return options.config ?? (await teamOf(options).readConfig(options.team));
}

/**
 * The options with the team's config and settings read once, together (one round trip on Redis),
 * for the use cases a command calls next. @throws TEAM_NOT_FOUND, FILE_CORRUPT
 */
export async function withConfig<T extends TeamOptions>(options: T): Promise<T & { config: TeamConfig; settings: TeamSettings; viewStamp?: string | undefined }> {
  return { ...options, ...(await stampedView(options)) };
}

/** A team's config and settings, with the view stamp taken before them on a store that keeps one. */
export interface StampedView {
  config: TeamConfig;
  settings: TeamSettings;
  /** {@link TeamStore.viewStamp} taken before `config` and `settings` were read; undefined on a store without stamps (files). */
  viewStamp: string | undefined;
}

/**
 * The team's view stamp (on a store that keeps one), config and settings, read now in one round
 * trip: the stamp is asked first, in the same tick, so the server takes it before the reads (one
 * connection, one order) — it is never newer than what they saw. @throws TEAM_NOT_FOUND, FILE_CORRUPT
 */
export async function stampedView(options: TeamOptions): Promise<StampedView> {
  const store = teamOf(options);
  const stamp = store.viewStamp?.(options.team);
  stamp?.catch(() => undefined); // awaited below, after the config's error (TEAM_NOT_FOUND) is reported
  const { config, settings } = await configAndSettingsOf({ ...options, config: undefined, settings: undefined });
  return { config, settings, viewStamp: stamp === undefined ? undefined : await stamp };
}

/**
 * The options' kept {@link SenderView}, or their known view when it carries its stamp ({@link withConfig}), or — on a
 * store without stamps — the known config and settings (or those read now); else read now with its
 * stamp ({@link stampedView}): a config read without a stamp cannot be checked at the append.
 */
export async function senderView(options: TeamOptions & KnownConfig): Promise<StampedView> {
  if (options.senderView !== undefined) return options.senderView.view();
  if (options.config !== undefined && options.settings !== undefined && options.viewStamp !== undefined) return { config: options.config, settings: options.settings, viewStamp: options.viewStamp };
  if (typeof teamOf(options).viewStamp !== 'function') return { ...(await configAndSettingsOf(options)), viewStamp: undefined };
  return stampedView(options);
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
