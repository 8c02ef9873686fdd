import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { repoRoot, requireFreshDist } from '../support/pulumiHost';
import { renamedTopology } from './fixtures';

// The engine itself (the `pulumi` CLI) driving the library through the Automation API: preview,
// up, a second up, refresh after a hand change, the repairing up, and destroy, on a local file
// backend, against the lab's Northbound. The CLI cannot be installed on these machines, so this
// runs only where it is on PATH; the host-harness tests cover the engine's calls everywhere.
function pulumiOnPath(): boolean {
  try {
    execFileSync('pulumi', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const present = pulumiOnPath();
if (!present)
  process.stderr.write(
    'NOTE: no `pulumi` binary on PATH: the Automation API tests (preview, up, refresh, destroy on a local file backend) are skipped\n',
  );

const OWNER = 'ovnk-pulumi.automation';
const program = `
const pulumi = require('@pulumi/pulumi');
const ovnk = require('ovnk-pulumi');
const topology = require('./topology.json');
const cluster = new ovnk.Cluster('auto', { ...topology, owner: '${OWNER}' });
exports.networkIds = cluster.allocations.apply((a) => a.networkIds);
exports.tunnelKey = cluster.connects['colored-enterprise-a'].tunnelKey;
`;

/** A consumer project: Pulumi.yaml, the program, the topology, node_modules linking this package and its peer SDK. */
function project(dir: string): void {
  writeFileSync(join(dir, 'Pulumi.yaml'), 'name: ovnk-automation\nruntime: nodejs\nmain: index.js\n');
  writeFileSync(join(dir, 'index.js'), program);
  writeFileSync(join(dir, 'topology.json'), JSON.stringify(renamedTopology('colored-enterprise', 'central', '-a')));
  mkdirSync(join(dir, 'node_modules', '@pulumi'), { recursive: true });
  symlinkSync(repoRoot, join(dir, 'node_modules', 'ovnk-pulumi'), 'dir');
  symlinkSync(
    dirname(require.resolve('@pulumi/pulumi/package.json', { paths: [repoRoot] })),
    join(dir, 'node_modules', '@pulumi', 'pulumi'),
    'dir',
  );
}

async function nbTransact(endpoint: string, operations: unknown[]): Promise<{ rows?: Record<string, unknown>[] }[]> {
  const client = await OvsdbClient.connect(endpoint);
  try {
    return await client.transact('OVN_Northbound', operations as never);
  } finally {
    client.close();
  }
}

const ownedRouters = async (endpoint: string) =>
  (
    await nbTransact(endpoint, [
      { op: 'select', table: 'Logical_Router', where: [], columns: ['name', 'external_ids'] },
    ])
  )[0]!.rows!.filter((r) =>
    String((r.external_ids as Record<string, string>)['ovnk.io/owner'] ?? '').startsWith(OWNER),
  );

describe.skipIf(!present)('Automation API on a local file backend (needs the pulumi CLI)', () => {
  const lab = inject('lab');
  let dir: string;
  let stack: import('@pulumi/pulumi/automation').Stack;

  beforeAll(async () => {
    requireFreshDist();
    const { LocalWorkspace } = await import('@pulumi/pulumi/automation');
    dir = mkdtempSync(join(tmpdir(), 'ovnk-automation-'));
    mkdirSync(join(dir, 'state'));
    project(dir);
    const envVars = {
      PULUMI_BACKEND_URL: `file://${join(dir, 'state')}`,
      PULUMI_CONFIG_PASSPHRASE: 'ovnk-automation-test',
      PULUMI_SKIP_UPDATE_CHECK: 'true',
    };
    stack = await LocalWorkspace.createOrSelectStack({ stackName: 'auto', workDir: dir }, { envVars });
    await stack.setConfig('ovnk:nb', { value: lab.nb });
  }, 120_000);

  afterAll(async () => {
    if (stack) await stack.workspace.removeStack('auto', { force: true }).catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('preview plans every resource and shows the allocations before anything is written', async () => {
    const preview = await stack.preview();
    // stack + Cluster + 3 networks + 1 connect (components) + ClusterAllocations + 3 NetworkRows + 1 ConnectRouter
    expect(preview.changeSummary.create).toBe(11);
    expect(await ownedRouters(lab.nb)).toEqual([]);
  }, 300_000);

  it('up writes the rows and exports the allocations; a second up changes nothing', async () => {
    const up = await stack.up();
    const ids = up.outputs.networkIds!.value as Record<string, number>;
    expect(Object.keys(ids).sort()).toEqual([
      'cluster_udn_blue-network-a',
      'cluster_udn_green-network-a',
      'yellow_yellow-network-a',
    ]);
    expect(up.outputs.tunnelKey!.value).toBeGreaterThan(0);
    expect((await ownedRouters(lab.nb)).length).toBeGreaterThan(3);
    const again = await stack.up();
    expect(again.summary.resourceChanges).toEqual({ same: 11 });
  }, 300_000);

  it('refresh after a hand change reports the drift, and the next up repairs it', async () => {
    await nbTransact(lab.nb, [
      {
        op: 'mutate',
        table: 'Logical_Router',
        where: [['name', '==', 'cluster_udn_blue.network.a_ovn_cluster_router']],
        mutations: [['options', 'insert', ['map', [['ovnk-test', 'hand-made']]]]],
      },
    ]);
    const refresh = await stack.refresh();
    expect(refresh.summary.resourceChanges?.update).toBeGreaterThanOrEqual(1);
    const repair = await stack.up();
    expect(repair.summary.resourceChanges?.update).toBeGreaterThanOrEqual(1);
    const [router] = (
      await nbTransact(lab.nb, [
        {
          op: 'select',
          table: 'Logical_Router',
          where: [['name', '==', 'cluster_udn_blue.network.a_ovn_cluster_router']],
          columns: ['options'],
        },
      ])
    )[0]!.rows!;
    expect(router!.options).not.toHaveProperty('ovnk-test');
  }, 300_000);

  it('destroy removes every row the stack owns', async () => {
    await stack.destroy();
    expect(await ownedRouters(lab.nb)).toEqual([]);
  }, 300_000);
});
