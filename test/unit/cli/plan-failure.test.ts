import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { plan } from '../../../cli/commands/plan';
import { ExitCode, runCommand } from '../../../cli/contract';
import * as runtime from '../../../provider/runtime/cli';

// Issue 25.4: a plan that cannot be built is this process's failure, exit 1 with the reason, never
// the exit 4 of an unreachable target; also when a zone fails while the document is written (a
// large plan's zones render their rows when read). No input makes the renderers fail today, so
// the failure is injected where the plan is built (provider/runtime's planCluster), as a defect would.

vi.mock('../../../provider/runtime/cli', async (importOriginal) => {
  const original = await importOriginal<typeof runtime>();
  return { ...original, planCluster: vi.fn(original.planCluster) };
});

const planCluster = vi.mocked(runtime.planCluster);
const dir = mkdtempSync(join(tmpdir(), 'ovnk-plan-failure-'));
const file = join(dir, 'plan.yaml');
writeFileSync(
  file,
  `apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: failing}
spec:
  clusterSubnets: [10.244.0.0/16]
  namespaces: [{name: red, labels: {net: red}}]
  nodes: [{name: n1, chassisId: c1}, {name: n2, chassisId: c2}]
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: red}
spec:
  namespaceSelector: {matchLabels: {net: red}}
  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.64.0.0/16, hostSubnet: 24}]}}
`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** Runs `ovnk plan -f file -o <format>` as the CLI does; the exit code and what it wrote. */
async function run(format: 'json' | 'text'): Promise<{ code: ExitCode; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const keep =
    (into: string[]) =>
    (chunk: string | Uint8Array, ...rest: unknown[]) => {
      into.push(String(chunk));
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    };
  vi.spyOn(process.stdout, 'write').mockImplementation(keep(out) as typeof process.stdout.write);
  vi.spyOn(process.stderr, 'write').mockImplementation(keep(err) as typeof process.stderr.write);
  const code = await runCommand(format, () => plan({ file: [file], output: format }));
  vi.restoreAllMocks();
  return { code, out: out.join(''), err: err.join('') };
}

describe('ovnk plan that cannot be built', () => {
  it('plans the file when nothing fails (exit 0), so the failures below are the injected ones', async () => {
    const { code, out } = await run('json');
    expect(code).toBe(ExitCode.ok);
    expect(JSON.parse(out).ok).toBe(true);
  });

  it('exits 1 naming the reason when building the plan fails, never 4', async () => {
    planCluster.mockRejectedValueOnce(new Error('internal: two different Logical_Router rows named x'));
    const { code, out } = await run('json');
    expect(code).toBe(ExitCode.refused);
    const document = JSON.parse(out);
    expect(document).toMatchObject({ ok: false, exitCode: 1 });
    expect(document.error).toBe('the plan could not be built: internal: two different Logical_Router rows named x');
  });

  it('exits 1 naming the reason when a zone fails while the document is written, in both output modes', async () => {
    for (const format of ['json', 'text'] as const) {
      planCluster.mockImplementationOnce(async (...args) => {
        const actual = await vi.importActual<typeof runtime>('../../../provider/runtime/cli');
        const result = await actual.planCluster(...args);
        if (!result.ok) return result;
        const zone = result.plan.topology.zones[1]!;
        Object.defineProperty(zone, 'rows', {
          get: () => {
            throw new Error('internal: a zone failed');
          },
        });
        delete zone.tableCounts;
        return result;
      });
      const { code, err } = await run(format);
      expect(code, format).toBe(ExitCode.refused);
      expect(err).toContain('the plan could not be built: internal: a zone failed');
    }
  });
});
