import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { RUN_STARTED } from './test/support/dist';

const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );

/**
 * The files of the lab lane: the packet and CLI tests of test/lab, the Pulumi host tests (each runs
 * a host and its provider processes: heavy, and most use the lab), any other file that takes the
 * shared lab (`inject('lab')`), and any file serializing a Pulumi shim (test/support/pulumiHost.ts:
 * Pulumi's closure serialization needs trace events, which worker threads lack). Every other file
 * needs no lab (pure tests, the fuzz suite, the QEMU guest tests, the integration tests with
 * servers of their own) and runs in the no-lab lane.
 */
const LAB_LANE = [
  'test/lab/**/*.test.ts',
  'test/pulumi/**/*.test.ts',
  ...testFiles('test').filter((f) => /inject\('lab'\)|support\/pulumiHost'/.test(readFileSync(f, 'utf8'))),
];

// Two lanes side by side, one per core of the machines the suite runs on (vitest runs its fork
// and thread pools at the same time), each running its files one at a time:
// - lab: one central lab for the run (test/setup/lab.ts starts it once and provides its status),
//   its files in forks, as they share the lab's nodes and bridges;
// - no-lab: the files that need no lab, in a worker thread (one at a time also keeps two QEMU
//   guests from booting at once).
// test/setup/dist.ts builds a stale dist/ for both first; test/setup/rpc.ts keeps a test's
// synchronous work from timing out vitest's own calls.
export default defineConfig({
  test: {
    globalSetup: ['test/setup/dist.ts'],
    setupFiles: ['test/setup/rpc.ts'],
    // when this run started: sources edited later are not this run's (test/support/dist.ts)
    env: { [RUN_STARTED]: process.env[RUN_STARTED] ?? String(Date.now()) },
    testTimeout: 60_000,
    hookTimeout: 180_000,
    poolOptions: { forks: { maxForks: 1, minForks: 1 }, threads: { maxThreads: 1, minThreads: 1 } },
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'lab', include: LAB_LANE, globalSetup: ['test/setup/lab.ts'], pool: 'forks' },
      },
      {
        extends: true,
        test: {
          name: 'no-lab',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...LAB_LANE],
          pool: 'threads',
        },
      },
    ],
  },
});
