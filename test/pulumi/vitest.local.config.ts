import { defineConfig } from 'vitest/config';

// The Pulumi tests that need no lab (mocks, packaging) and Kubernetes mode's (a fake API server),
// without the global lab setup:
// `npx vitest run --config test/pulumi/vitest.local.config.ts`. `npm test` runs them too.
export default defineConfig({
  test: {
    root: __dirname + '/../..',
    include: [
      'test/pulumi/components*.test.ts',
      'test/pulumi/stacks.test.ts',
      'test/pulumi/packaging.test.ts',
      'test/pulumi/slices.test.ts',
      'test/integration/kubernetes/*.test.ts',
    ],
    testTimeout: 60_000,
  },
});
