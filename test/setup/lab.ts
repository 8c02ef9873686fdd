/**
 * Vitest global setup: one central lab (3 nodes, one Northbound for all: quick to start, and
 * what the tests reading `lab.nb` expect) for the whole test run, shared by every test file through
 * `inject('lab')`, and torn down at the end. Tests of upstream's per-node layout start their own
 * per-node lab (test/lab/ic-helpers.ts). The OVN is the lab's default (trixie) unless
 * OVNK_LAB_OVN says otherwise. Each run gets its own lab name (t<pid>), so test runs
 * of several people on one machine do not collide; labs of runs that died are removed first.
 */
import type { TestProject } from 'vitest/node';
import { type CentralLabStatus, checkOvnFlavor, DEFAULT_OVN, down, listLabNames, readState, up } from '../../lab';

declare module 'vitest' {
  export interface ProvidedContext {
    lab: CentralLabStatus;
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Test labs whose run is gone (killed runs skip their teardown). */
async function removeAbandonedTestLabs(): Promise<void> {
  for (const name of listLabNames().filter((n) => /^t\d+$/.test(n))) {
    const owner = readState(name)?.ownerPid ?? Number(name.slice(1));
    if (!processExists(owner)) await down(name);
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const name = `t${process.pid}`;
  try {
    await removeAbandonedTestLabs();
    // OVNK_LAB_OVN=bookworm runs the suite on the host's OVN (compatibility)
    const ovn = checkOvnFlavor(process.env.OVNK_LAB_OVN ?? DEFAULT_OVN);
    const { status, seconds } = await up({
      name,
      nodes: 3,
      ovn,
      zones: 'central',
      uplinks: true,
      progress: (m) => process.stderr.write(`${m}\n`),
    });
    process.stderr.write(`test lab ${name} (${ovn} OVN) is up in ${seconds.toFixed(2)} s\n`);
    project.provide('lab', status as CentralLabStatus);
  } catch (error) {
    await down(name).catch(() => undefined);
    throw new Error(
      `the test lab could not start: ${(error as Error).message}. Set this machine up with "npm run setup" (as root), then run "npm test" as root.`,
      { cause: error },
    );
  }
  return async () => {
    await down(name);
  };
}
