#!/usr/bin/env node
// Thin launcher: the CLI is bundled into dist/mailroom.cjs (by `npm run build`; `npm ci` runs it
// through the prepare script) and started from a V8 code cache, see src/cli/launch.ts.
import { loadCli } from '../dist/cli/launch.js';

process.exitCode = await loadCli().main(process.argv.slice(2));
