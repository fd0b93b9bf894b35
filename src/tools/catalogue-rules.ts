/**
 * Rules that apply to every tool of the default catalogue, on every surface, before each entry's
 * own rules (refuse with `notPermitted` from ./rules.ts); a rule for one tool goes in that entry's
 * `rules` instead. None by default: the team policy (who may message whom, create, assign or
 * delete tasks, stop members; the lead-only answers) is not a tool rule — the use cases enforce it
 * (src/core/teams/policy.ts), so a tool is bound by it exactly as every other surface is.
 */
import type { ToolRule } from './rules.js';

/** Catalogue-wide rules of the default catalogue (`CATALOGUE`, ./all.ts); empty by default. */
export const CATALOGUE_RULES: readonly ToolRule[] = [];
