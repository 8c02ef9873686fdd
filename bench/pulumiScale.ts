/**
 * `npm run bench -- pulumi-scale`: the per-node cluster of 30 Layer3 networks through the public
 * components' resources, at 50 and 500 nodes: how many resources the stack registers
 * (stacks/scale.ts `resourceCount`, checked against the components under mocks by
 * test/pulumi/stacks.test.ts), the Check+Diff time of one ZoneRows against a trivial dynamic
 * provider given the same props in the same host (target <= 1.1x; and with the serialized shim
 * earlier versions stored as `__provider`, the difference that text makes), a whole no-change preview (the
 * ClusterAllocations Check+Diff and every ZoneRows') through the dynamic-provider host, the state
 * size, what a one-network change touches, and a refresh: one zone's Read (fetch the zone catalog
 * from the zone's NB_Global, render it, observe and reconcile against a real ovsdb-server holding
 * its rows) times the zones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { observe, planApply } from '../provider/nb/apply';
import { apply } from '../provider/nb/apply';
import { nbSchema } from '../provider/nb/generated/nb';
import { OvsdbClient } from '../provider/ovsdb/client';
import { adaptToServer } from '../provider/runtime/compat';
import { catalogRef, type ClusterSlices, pulumiKinds, pulumiOutputsOf } from '../provider/runtime/pulumi';
import { catalogKey } from '../provider/runtime/pulumi/catalog';
import { unpack } from '../provider/runtime/pulumi/pack';
import { zoneSliceRows } from '../provider/runtime/pulumi/sliceRows';
import type { ZoneSlice } from '../provider/runtime/pulumi/slices';
import { stateOf } from '../provider/runtime/pulumi/topologyInput';
import { selectGlobal, serializeState, stateKey } from '../provider/runtime/state';
import { renderSharedRows } from '../provider/topology/shared';
import { resourceCount, scaleTopology } from '../stacks/scale';
import { startOvsdbServer } from '../test/support/ovsdbServer';
import { threadsCpuSecondsOf } from '../test/support/processCpu';
import { dynamicUrn, linkedConsumer, PulumiHost, providerText, type Props, repoRoot } from '../test/support/pulumiHost';
import { type Benchmark, figure, note, timed } from './harness';
import { batchOf, interleaved, trivial } from './pulumi';

const NETWORKS = 30;
const SERIALIZED = join(repoRoot, 'test', 'pulumi', 'fixtures', 'provider-shims.v2.json');
const CPU_ROUNDS = 20;

/** CPU seconds (the host's and ours) of `body`: on this shared machine, wall time is mostly waiting. */
async function cpuOf(host: PulumiHost, body: () => Promise<unknown>): Promise<number> {
  const [theirs, mine] = [threadsCpuSecondsOf(host.pid), process.cpuUsage()];
  await body();
  const own = process.cpuUsage(mine);
  return threadsCpuSecondsOf(host.pid) - theirs + (own.user + own.system) / 1e6;
}
const SIZES = [50, 500];

/** Host CPU seconds of each batch over CPU_ROUNDS rounds, the batches interleaved. */
async function cpuRounds(host: PulumiHost, batches: (() => Promise<void>)[]): Promise<number[]> {
  const sums = batches.map(() => 0);
  for (let r = 0; r < CPU_ROUNDS; r++) for (const [i, batch] of batches.entries()) sums[i]! += await cpuOf(host, batch);
  return sums;
}

/** The scale topology with host subnets for 512 nodes per network (a /15 cut in /24s). */
function topology(nodes: number) {
  const base = scaleTopology({ networks: NETWORKS, connects: 0, nodes }, 'per-node');
  const networks = base.networks.map((network, i) => ({
    ...network,
    spec: {
      ...network.spec,
      network: {
        topology: 'Layer3' as const,
        layer3: { role: 'Primary' as const, subnets: [{ cidr: `10.${i * 2}.0.0/15`, hostSubnet: 24 }] },
      },
    },
  }));
  return { ...base, networks };
}

async function allocations(nodes: number, change = false) {
  const t = topology(nodes);
  if (change) t.networks[7]!.spec.network.layer3.subnets = [{ cidr: '10.200.0.0/15', hostSubnet: 24 }];
  const checked = await timed(() => pulumiKinds.ClusterAllocations.check({}, { owner: 'bench/cluster', ...t }));
  if (checked.value.failures?.length)
    throw new Error(`the topology does not check: ${checked.value.failures[0]!.reason}`);
  return { props: { owner: 'bench/cluster', ...t } as Props, inputs: checked.value.inputs!, seconds: checked.seconds };
}

const zoneName = (i: number) => `node-${i}`;
/** As components/cluster.ts makes them: a reference to the catalog ClusterAllocations publishes in the zone. */
const zoneProps = (slices: ClusterSlices, zone: string): Props => ({
  owner: `bench/cluster/zone/${zone}`,
  zone,
  slice: catalogRef(slices.zone!, 'bench/cluster'),
});

/** Check+Diff of every resource of an unchanged stack through the host, as a preview makes them. */
async function preview(
  host: PulumiHost,
  shims: Record<string, string>,
  nodes: number,
  ca: Props,
  slices: ClusterSlices,
) {
  const caUrn = dynamicUrn('ClusterAllocations', 'cluster');
  const caProps = { __provider: shims.ClusterAllocations, ...ca };
  const caChecked = await host.check(caUrn, caProps, caProps);
  const zones: { urn: string; props: Props; olds: Props }[] = [];
  for (let i = 0; i < nodes; i++) {
    const props = { __provider: shims.ZoneRows, ...zoneProps(slices, zoneName(i)) };
    const urn = dynamicUrn('ZoneRows', zoneName(i));
    zones.push({ urn, props, olds: (await host.check(urn, props, props)).inputs });
  }
  // the engine checks the new inputs against the old ones, then diffs the old state with them
  const clusterCall = async () => {
    const c = await host.check(caUrn, caChecked.inputs, caProps);
    await host.diff('cluster', caUrn, caChecked.inputs, c.inputs);
  };
  const zoneCalls = async () => {
    for (const [i, zone] of zones.entries()) {
      const checked = await host.check(zone.urn, zone.olds, zone.props);
      await host.diff(zoneName(i), zone.urn, zone.olds, checked.inputs);
    }
  };
  const cluster = await timed(clusterCall);
  const rows = await timed(zoneCalls);
  return {
    seconds: cluster.seconds + rows.seconds,
    cluster: cluster.seconds,
    zones: rows.seconds,
    cpu: { cluster: await cpuOf(host, clusterCall), zones: await cpuOf(host, zoneCalls) },
  };
}

/** How many ZoneRows' diffs report a change when one network changes. */
async function touched(host: PulumiHost, shim: string, nodes: number, before: ClusterSlices, after: ClusterSlices) {
  let changed = 0;
  for (let i = 0; i < nodes; i++) {
    const urn = dynamicUrn('ZoneRows', zoneName(i));
    const olds = { __provider: shim, ...zoneProps(before, zoneName(i)) };
    const news = { __provider: shim, ...zoneProps(after, zoneName(i)) };
    if ((await host.diff(zoneName(i), urn, olds, news)).changes === 2) changed++;
  }
  return changed;
}

/** NB_Global.external_ids as ClusterAllocations leaves them in each zone: its allocation state and the catalog. */
async function publish(client: OvsdbClient, inputs: Props): Promise<void> {
  const state = serializeState(stateOf(inputs)!);
  const catalog = (inputs.slices as ClusterSlices).zone!.data;
  const keys = [
    [stateKey('bench/cluster'), state],
    [catalogKey('bench/cluster'), catalog],
  ];
  const [global] = await client.transact('OVN_Northbound', [selectGlobal()]);
  const mutations = [['external_ids', 'insert', ['map', keys]]];
  // a fresh server has no NB_Global row (ovn-northd would make it)
  const op = global!.rows?.length
    ? { op: 'mutate', table: 'NB_Global', where: [], mutations }
    : { op: 'insert', table: 'NB_Global', row: { external_ids: ['map', keys] } };
  await client.transact('OVN_Northbound', [op as never]);
}

/**
 * One zone's Read as the ZoneRows makes it: fetch the catalog its reference names from the
 * zone's NB_Global (catalog.ts), render it, observe + reconcile against a server holding its rows.
 */
async function zoneRead(inputs: Props) {
  const server = await startOvsdbServer();
  const client = await OvsdbClient.connect(server.unix, { requestTimeoutMs: 600_000 });
  try {
    const owner = 'bench-cluster-zone';
    const ref = catalogRef((inputs.slices as ClusterSlices).zone!, 'bench/cluster');
    const render = async () => {
      const [global] = await client.transact('OVN_Northbound', [selectGlobal()]);
      const data = (global!.rows![0]!.external_ids as Record<string, string>)[catalogKey(ref.owner)];
      return zoneSliceRows(unpack({ ...ref, data }) as ZoneSlice, zoneName(0));
    };
    const schema = await client.getSchema('OVN_Northbound');
    // ClusterAllocations writes the shared Copp and meters in every zone first (clusterKind.ts)
    await apply(client, { owner: 'bench-cluster', schema: nbSchema, desired: renderSharedRows() });
    await publish(client, inputs);
    const desired = adaptToServer(await render(), schema).rows;
    await apply(client, { owner, schema: nbSchema, desired });
    const before = process.cpuUsage();
    const read = await timed(async () => {
      const request = { owner, schema: nbSchema, desired: adaptToServer(await render(), schema).rows };
      const { plan } = planApply(request, await observe(client, request));
      if (plan.changes.length > 0) throw new Error(`a no-change read found drift: ${plan.summary[0]}`);
    });
    const cpu = process.cpuUsage(before);
    return { seconds: read.seconds, cpu: (cpu.user + cpu.system) / 1e6, rows: desired.length };
  } finally {
    client.close();
    await server.stop();
  }
}

async function size(host: PulumiHost, shims: Record<string, string>, nodes: number): Promise<void> {
  const ca = await allocations(nodes);
  const slices = ca.inputs.slices as ClusterSlices;
  const resources = resourceCount({ networks: NETWORKS, connects: 0, nodes }, 'per-node');
  const zone = zoneProps(slices, zoneName(0));
  const zoneChecked = await pulumiKinds.ZoneRows.check({}, zone);
  const rows = zoneSliceRows(unpack(slices.zone) as ZoneSlice, zoneName(0));
  // the host stores `__provider` in both the inputs and the outputs of each resource
  const stored = (props: Props, shim: string) => JSON.stringify({ __provider: shim, ...props }).length;
  const zoneState =
    stored(zoneChecked.inputs!, shims.ZoneRows!) +
    stored(pulumiOutputsOf(zoneChecked.inputs!, [zoneName(0)], rows), shims.ZoneRows!);
  // inputs and outputs both hold the allocations
  const caState = 2 * stored(ca.inputs, shims.ClusterAllocations!);
  const [floor, baseline, ours] = await interleaved([
    await batchOf(host, 'Trivial', { __provider: shims.Trivial! }),
    await batchOf(host, 'Trivial', { __provider: shims.Trivial!, ...zone }),
    await batchOf(host, 'ZoneRows', { __provider: shims.ZoneRows!, ...zone }),
  ]);
  // CPU of the host: the trivial provider, ours, ours with the serialized shim earlier versions stored
  const [trivialCpu, oursCpu, serializedCpu] = await cpuRounds(host, [
    await batchOf(host, 'Trivial', { __provider: shims.Trivial!, ...zone }),
    await batchOf(host, 'ZoneRows', { __provider: shims.ZoneRows!, ...zone }),
    await batchOf(host, 'ZoneRows', { __provider: shims.Serialized!, ...zone }),
  ]);
  const previewed = await preview(host, shims, nodes, ca.props, slices);
  const changedCa = await allocations(nodes, true);
  const changed = await touched(host, shims.ZoneRows!, nodes, slices, changedCa.inputs.slices as ClusterSlices);
  const read = await zoneRead(ca.inputs);
  const label = `${nodes}n`;
  note(
    `${nodes} nodes x ${NETWORKS} networks: ${resources} resources (${nodes} ZoneRows); ClusterAllocations check ${ca.seconds.toFixed(2)} s in-process; Check+Diff of a ZoneRows ${ours!.toFixed(2)} ms vs trivial ${baseline!.toFixed(2)} ms (floor ${floor!.toFixed(2)} ms); preview through the host ${previewed.seconds.toFixed(2)} s (ClusterAllocations ${previewed.cluster.toFixed(2)} s, ${nodes} ZoneRows ${previewed.zones.toFixed(2)} s; CPU ${previewed.cpu.cluster.toFixed(2)} s and ${previewed.cpu.zones.toFixed(2)} s); Check+Diff CPU ZoneRows / trivial ${(oursCpu! / trivialCpu!).toFixed(2)}x (${(serializedCpu! / trivialCpu!).toFixed(2)}x with the serialized shim); state ${((caState + nodes * zoneState) / 1048576).toFixed(1)} MiB (ClusterAllocations ${(caState / 1024).toFixed(0)} KiB, a ZoneRows ${(zoneState / 1024).toFixed(1)} KiB); a one-network change touches ${changed} ZoneRows + ClusterAllocations; a zone's read ${read.seconds.toFixed(2)} s (our CPU ${read.cpu.toFixed(2)} s) for ${read.rows} rows, refresh ~${(read.seconds * nodes).toFixed(0)} s of zones in turn`,
  );
  figure(`pulumi.scale.${label}.resources`, resources, 'resources');
  figure(`pulumi.scale.${label}.checkdiff.zonerows`, ours!, 'ms');
  figure(`pulumi.scale.${label}.checkdiff.ratio`, ours! / baseline!, 'x');
  figure(`pulumi.scale.${label}.checkdiff.cpu.ratio`, oursCpu! / trivialCpu!, 'x');
  figure(`pulumi.scale.${label}.checkdiff.cpu.ratio.serialized_shim`, serializedCpu! / trivialCpu!, 'x');
  figure(`pulumi.scale.${label}.preview.cpu`, previewed.cpu.cluster + previewed.cpu.zones, 's');
  figure(`pulumi.scale.${label}.preview.cpu.cluster`, previewed.cpu.cluster, 's');
  figure(`pulumi.scale.${label}.preview.cpu.zonerows_each`, (previewed.cpu.zones / nodes) * 1000, 'ms');
  figure(`pulumi.scale.${label}.preview`, previewed.seconds, 's');
  figure(`pulumi.scale.${label}.preview.cluster`, previewed.cluster, 's');
  figure(`pulumi.scale.${label}.preview.zonerows_each`, (previewed.zones / nodes) * 1000, 'ms');
  figure(`pulumi.scale.${label}.state`, (caState + nodes * zoneState) / 1048576, 'MiB');
  figure(`pulumi.scale.${label}.state.zonerows`, zoneState / 1024, 'KiB');
  figure(`pulumi.scale.${label}.state.cluster`, caState / 1024, 'KiB');
  // what the same state held with the serialized shim in each resource's inputs and outputs
  const oneLine = nodes * shims.ZoneRows!.length + shims.ClusterAllocations!.length;
  const grown = 2 * ((nodes + 1) * shims.Serialized!.length - oneLine);
  figure(`pulumi.scale.${label}.state.serialized_shim`, (caState + nodes * zoneState + grown) / 1048576, 'MiB');
  // not in the stack's state: what ClusterAllocations publishes in each zone's Northbound for its ZoneRows
  figure(`pulumi.scale.${label}.catalog.published`, slices.zone!.data.length / 1024, 'KiB');
  figure(`pulumi.scale.${label}.one_network_change.touched`, changed + 1, 'resources');
  figure(`pulumi.scale.${label}.read.zone`, read.seconds, 's');
  figure(`pulumi.scale.${label}.read.zone.cpu`, read.cpu, 's');
  figure(`pulumi.scale.${label}.refresh.estimate`, read.seconds * nodes, 's');
}

async function run(): Promise<void> {
  const pulumi = await import('@pulumi/pulumi');
  const consumer = linkedConsumer();
  const host = await PulumiHost.start(consumer.dir);
  try {
    await host.configure({});
    const shims: Record<string, string> = {
      Trivial: (await pulumi.runtime.serializeFunction(() => trivial, { allowSecrets: true })).text,
      ZoneRows: providerText('ZoneRows'),
      ClusterAllocations: providerText('ClusterAllocations'),
      // ZoneRows' `__provider` as every version before the one-line text stored it
      Serialized: (JSON.parse(readFileSync(SERIALIZED, 'utf8')) as Record<string, string>).ZoneRows!,
    };
    note(
      `__provider: ZoneRows ${shims.ZoneRows!.length} bytes, ClusterAllocations ${shims.ClusterAllocations!.length}, the trivial provider ${shims.Trivial!.length}, ZoneRows' serialized shim of earlier versions ${shims.Serialized!.length}`,
    );
    figure('pulumi.scale.shim.zonerows', shims.ZoneRows!.length, 'bytes');
    figure('pulumi.scale.shim.trivial', shims.Trivial!.length, 'bytes');
    for (const nodes of SIZES) await size(host, shims, nodes);
  } finally {
    await host.stop();
    consumer.remove();
  }
}

export const pulumiScaleBenchmark: Benchmark = {
  name: 'pulumi-scale',
  description: `a per-node cluster of ${NETWORKS} networks at ${SIZES.join(' and ')} nodes through the dynamic-provider host: resources, Check+Diff vs trivial, preview, state, one-network change, refresh`,
  run,
};
