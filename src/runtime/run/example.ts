/**
 * The demo team file shipped in the package (`fixtures/demo/team.yaml`: three offline workers, a
 * six-task DAG over `sales.csv`), which `mailroom run --example` runs, so the documented demo works
 * from an install as from a clone.
 */
import { fileURLToPath } from 'node:url';

/** Absolute path of the packaged demo team file (resolved from dist/runtime/run/, or src/ under tests). */
export const EXAMPLE_TEAM_FILE: string = fileURLToPath(new URL('../../../fixtures/demo/team.yaml', import.meta.url));
