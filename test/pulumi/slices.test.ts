import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { prepareZones } from '../../provider/connect/zones';
import type { DesiredRow } from '../../provider/nb/desired';
import { planTopology } from '../../provider/runtime/plan';
import { pulumiKinds } from '../../provider/runtime/pulumi';
import { connectFromJson, connectToJson } from '../../provider/runtime/pulumi/connectJson';
import { pack, unpack } from '../../provider/runtime/pulumi/pack';
import { connectSliceRows, networkSliceRows, zoneSliceRows } from '../../provider/runtime/pulumi/sliceRows';
import type { ClusterSlices } from '../../provider/runtime/pulumi/slices';
import { identityOf } from '../../provider/topology/rows';
import { renderSharedRows } from '../../provider/topology/shared';
import { repoRoot } from './fixtures';

// The slices ClusterAllocations cuts must render exactly what the CLI's plan renders for the same
// topology: the per-zone resources never plan the cluster, so this is where the two are tied.
function topologyFile(path: string, zones: 'central' | 'per-node') {
  const objects = parseAllDocuments(readFileSync(join(repoRoot, path), 'utf8')).map(
    (d) => d.toJS() as { kind: string; spec: Record<string, unknown> },
  );
  const inventory = objects.find((o) => o.kind === 'Inventory')!;
  // stack files leave the nodes to --lab: the nodes their pods name stand in for them
  const podNodes = ((inventory.spec.pods ?? []) as { node: string }[]).map((p) => p.node);
  const nodes =
    inventory.spec.nodes ?? [...new Set(['ovn-control-plane', ...podNodes])].sort().map((name) => ({ name }));
  return {
    inventory: { ...inventory, spec: { ...inventory.spec, nodes, zones } },
    networks: objects.filter((o) => o.kind.endsWith('UserDefinedNetwork')),
    connects: objects.filter((o) => o.kind === 'ClusterNetworkConnect'),
  };
}

async function sliced(path: string, zones: 'central' | 'per-node') {
  const topology = topologyFile(path, zones);
  const checked = await pulumiKinds.ClusterAllocations.check({}, { owner: 'slice-test/cluster', ...topology });
  expect(checked.failures ?? []).toEqual([]);
  const plan = planTopology(JSON.stringify([topology.inventory, ...topology.networks, ...topology.connects]));
  if (!plan.ok) throw new Error('the fixture does not plan');
  return { slices: checked.inputs!.slices as ClusterSlices, plan: plan.plan, inputs: checked.inputs! };
}

const key = (r: DesiredRow) => `${r.table}/${identityOf(r)}/${JSON.stringify(r.columns)}`;
const keys = (rows: DesiredRow[]) => rows.map(key).sort();
const shared = new Set(renderSharedRows().map(key));

describe('slices render what the CLI plan renders', () => {
  for (const file of [
    'test/fixtures/colored-enterprise.yaml',
    'stacks/colored-enterprise-services.yaml',
    'stacks/connect-chain.yaml',
  ]) {
    it(`central layout of ${file}: every network slice plus every connect slice plus the shared rows is the plan's central zone`, async () => {
      const { slices, plan } = await sliced(file, 'central');
      const rows = [
        ...Object.values(slices.networks).flatMap((s) => networkSliceRows(unpack(s), 'central')),
        ...Object.values(slices.connects).flatMap((s) => connectSliceRows(unpack(s), 'central')),
      ];
      const expected = plan.zones[0]!.rows.filter((r) => !shared.has(key(r)));
      expect(Object.keys(slices.networks).length).toBe(plan.cluster.networks.length);
      expect(rows.length).toBeGreaterThan(50);
      expect(new Set(keys(rows))).toEqual(new Set(keys(expected)));
    });

    it(`per-node layout of ${file}: the zone slice renders each node's zone as the plan does, without the shared rows`, async () => {
      const { slices, plan } = await sliced(file, 'per-node');
      expect(plan.zones.length).toBeGreaterThan(1);
      for (const zone of plan.zones) {
        const expected = zone.rows.filter((r) => !shared.has(key(r)));
        expect(keys(zoneSliceRows(unpack(slices.zone), zone.name))).toEqual(keys(expected));
      }
    });
  }

  it('a network slice holds only its own network: no other network name appears in it', async () => {
    const { slices } = await sliced('test/fixtures/colored-enterprise.yaml', 'central');
    const blue = JSON.stringify(unpack(slices.networks['ClusterUserDefinedNetwork/blue-network']));
    expect(blue).toContain('cluster_udn_blue-network');
    expect(blue).not.toContain('green-network');
    expect(blue).not.toContain('yellow');
  });

  it('a zone the slice does not have is refused, naming the zone and the zones there are', async () => {
    const { slices } = await sliced('test/fixtures/colored-enterprise.yaml', 'central');
    expect(() =>
      networkSliceRows(unpack(slices.networks['ClusterUserDefinedNetwork/blue-network']), 'ovn-worker'),
    ).toThrow('zone: "ovn-worker" is not a zone of this central cluster (zones: central)');
  });

  it('a connect input survives the trip through JSON unchanged (CIDRs as text, parsed back)', async () => {
    const { plan } = await sliced('test/fixtures/colored-enterprise.yaml', 'central');
    const input = prepareZones(plan.cluster, plan.allocation).connects[0]!;
    expect(connectFromJson(JSON.parse(JSON.stringify(connectToJson(input))))).toEqual(input);
  });

  it('a packed slice whose data was altered is refused, naming the digest', () => {
    const packed = pack({ a: 1 }, {});
    const other = pack({ a: 2 }, {});
    expect(unpack(packed)).toEqual({ a: 1 });
    expect(() => unpack({ ...packed, data: other.data })).toThrow(
      `slice: data does not match its digest ${packed.digest}`,
    );
    expect(() => unpack({ digest: 'x' })).toThrow(/slice: expected a packed slice/);
  });
});
