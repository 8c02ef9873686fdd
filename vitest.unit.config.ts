import { defineConfig } from 'vitest/config';

// Pure unit tests only: no lab, no servers (the fuzz suite too). `npx vitest run --config vitest.unit.config.ts`.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/fuzz/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
