#!/usr/bin/env node
// Thin launcher (CommonJS, see bin/package.json): the CLI is bundled into dist/mailroom.cjs by
// `npm run build` (`npm pack` runs it through the prepack script; a clone runs it by hand) and
// started from a V8 code cache, see src/cli/launch.cts.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
if (!existsSync(join(__dirname, '..', 'dist', 'cli', 'launch.cjs'))) {
  process.stderr.write('mailroom: the CLI is not built (dist/ is missing). In a clone, run: npm run build\n');
  process.exit(1);
}
const { bundleFor, loadCli } = require('../dist/cli/launch.cjs');

const argv = process.argv.slice(2);
// A hot verb runs from its own bundle (see VERB_BUNDLES in src/cli/launch.cts), any other from the full CLI.
loadCli(bundleFor(argv))
  .main(argv)
  .then((code) => {
    process.exitCode = code;
  });
