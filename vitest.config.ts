import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['core/**/*.test.ts', 'electron/**/*.test.ts', 'tests/**/*.test.ts', 'scripts/**/*.test.ts'],
    // Integration tests drive real watchers on real folders; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The end-to-end tests serve the built renderer: build it once, first, when stale.
    globalSetup: ['tests/global-setup.ts'],
  },
});
