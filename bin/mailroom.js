#!/usr/bin/env node
// Thin launcher (CommonJS, see bin/package.json): the CLI is bundled into dist/mailroom.cjs by
// `npm run build` (`npm ci` runs it through the prepare script) and started from a V8 code cache,
// see src/cli/launch.cts.
'use strict';
const { loadCli } = require('../dist/cli/launch.cjs');

loadCli()
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
