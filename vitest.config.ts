import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { RUN_STARTED } from './test/support/dist';
import { QUIET_HOOK_TIMEOUT_MS, QUIET_TEST_TIMEOUT_MS } from './test/support/load';

const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
const all = testFiles('test').map((f) => ({ f, text: readFileSync(f, 'utf8') }));

/** The files that take the central lab (`inject('lab')`): one at a time, as they share its nodes and bridges. */
const CENTRAL_LAB = all.filter(({ text }) => text.includes("inject('lab')")).map(({ f }) => f);

/**
 * The files with a data plane of their own (the rest of test/lab: per-node zones, RAFT, the demo,
 * the README's commands; the QEMU guest of test/vm that needs a fork): beside the central lab's
 * files, in the `own-lab` lane. Labs share no namespace, address, port or root-namespace link
 * (lab/layout.ts), and a lab's nodes keep their MAC their own under load (lab/node.ts,
 * lab/uplinks.ts; test/lab/node-mac.test.ts).
 */
const OWN_DATA_PLANE = all
  .map(({ f }) => f)
  .filter((f) => (/^test\/lab\//.test(f) || f === 'test/vm/pulumi-uplink.test.ts') && !CENTRAL_LAB.includes(f));

/**
 * The files that need a fork: those with a data plane of their own, the Pulumi host tests, and any
 * file serializing a Pulumi shim (test/support/pulumiHost.ts) or constructing components under
 * mocks (Pulumi's closure serialization needs trace events, which worker threads lack; there it
 * hangs).
 */
const PULUMI_FORKS = all
  .filter(({ f, text }) => /^test\/pulumi\//.test(f) || text.includes("support/pulumiHost'"))
  .map(({ f }) => f);
const OWN_LAB_LANE = [...new Set([...OWN_DATA_PLANE, ...PULUMI_FORKS])].filter((f) => !CENTRAL_LAB.includes(f));

// Three lanes side by side, each running its files one at a time:
// - lab: one central lab for the run (test/setup/lab.ts starts it once and provides its status)
//   and the files that take it, in forks;
// - own-lab: the files with labs of their own and the Pulumi files that need a fork, in forks;
// - no-lab: every other file (pure tests, the fuzz suite, the QEMU guest tests, integration tests
//   with servers of their own), in a worker thread (one at a time also keeps two of its QEMU guests
//   from booting at once).
// vitest has one pool per kind in a process, so `lab` and `own-lab` would share the forks pool and
// run one after the other: scripts/test.sh runs `own-lab` in a second vitest process beside the
// first. test/setup/dist.ts builds a stale dist/ first; test/setup/rpc.ts keeps a test's
// synchronous work from timing out vitest's own calls; test/setup/timeouts.ts stretches the
// timeouts by the load.
export default defineConfig({
  test: {
    globalSetup: ['test/setup/dist.ts'],
    setupFiles: ['test/setup/rpc.ts', 'test/setup/timeouts.ts'],
    // when this run started: sources edited later are not this run's (test/support/dist.ts)
    env: { [RUN_STARTED]: process.env[RUN_STARTED] ?? String(Date.now()) },
    // stretched by the load when each file starts (test/setup/timeouts.ts)
    testTimeout: QUIET_TEST_TIMEOUT_MS,
    hookTimeout: QUIET_HOOK_TIMEOUT_MS,
    poolOptions: { forks: { maxForks: 1, minForks: 1 }, threads: { maxThreads: 1, minThreads: 1 } },
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'lab', include: CENTRAL_LAB, globalSetup: ['test/setup/lab.ts'], pool: 'forks' },
      },
      { extends: true, test: { name: 'own-lab', include: OWN_LAB_LANE, pool: 'forks' } },
      {
        extends: true,
        test: {
          name: 'no-lab',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...CENTRAL_LAB, ...OWN_LAB_LANE],
          pool: 'threads',
        },
      },
    ],
  },
});
