/**
 * Rules that apply to every tool of the default catalogue, on every surface, before each entry's
 * own rules. This is where a team-wide policy goes (who may message whom, create, assign or
 * delete tasks, stop members: refuse with `notPermitted` from ./rules.ts); a rule for one tool goes
 * in that entry's `rules` instead. The team policy is here; its default is open, as Claude Code's.
 */
import type { ToolRule } from './rules.js';
import { policyRule } from './policy-rule.js';

/** Catalogue-wide rules of the default catalogue (`CATALOGUE`, ./all.ts): the team policy (./policy-rule.ts). */
export const CATALOGUE_RULES: readonly ToolRule[] = [policyRule];
