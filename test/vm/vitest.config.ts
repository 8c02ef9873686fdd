import { defineConfig } from 'vitest/config';

// The QEMU guest tests alone, without the netns lab's global setup: `npx vitest run --config test/vm/vitest.config.ts`.
// Each file boots its own guest (about 20 s under TCG) and stops it.
export default defineConfig({
  test: {
    include: ['test/vm/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
