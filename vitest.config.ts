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
    // Most Redis tests run a server without the append-only file (speed); the once-per-process
    // durability warning would land in every CLI run's stderr. The tests of that warning
    // (test/redis/durability.test.ts) clear this.
    env: { MAILROOM_ALLOW_VOLATILE: '1' },
  },
});
