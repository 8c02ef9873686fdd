import { defineConfig } from 'vitest/config';

// One lab per test run, shared by every test file (test/setup/lab.ts starts it once and
// provides its status); unit tests do not touch it. Files run one at a time by default because
// the lab and the servers are shared and the machine has two cores.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/lab.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: ['default'],
  },
});
