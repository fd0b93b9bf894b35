import { defineConfig } from 'vitest/config';

export default defineConfig({
  // src/cli/command-words.cts is CommonJS for the launcher and imported by the ESM CLI: vite's
  // TypeScript transform leaves .cts out unless told.
  esbuild: { include: /\.(m?ts|cts|[jt]sx)$/ },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two test files at once, even on a 2-core machine (vitest's default there is one: cores − 1).
    // Most files wait — on subprocesses, redis-server, lock stale times, heartbeats — rather than
    // compute, so a second file fills the idle core time; docs/decisions.md "Two test files at once".
    maxWorkers: 2,
    // Most Redis tests run a server without the append-only file (speed); the once-per-process
    // durability warning would land in every CLI run's stderr. The tests of that warning
    // (test/redis/durability.test.ts) clear this.
    env: { MAILROOM_ALLOW_VOLATILE: '1' },
  },
});
