/**
 * `npm run bench -- connect`: one ClusterNetworkConnect over 30 primary Layer3 networks and 20
 * nodes (central zone) applied to a lab's Northbound (the lab's 3 nodes are real chassis, the
 * other 17 exist only in NB), then re-applied with no change and diffed, through the runtime path
 * the CLI takes. Also the time from the start of an apply to the first ping that crosses a
 * connect between real pods on two lab nodes (measureFirstPing says at which size). Baseline in the same run: `ovsdb-client dump` of
 * that Northbound. Targets: re-apply and diff each under 1.5x the dump and under 1 s.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { down, DEFAULT_OVN, type LabStatus, readState, up } from '../lab';
import { applyZone, closeConnections, destroyZone, diffZone, nbConnection, planTopology, readZoneState, type TopologyPlan } from '../provider/runtime';
import type { OvsdbDatabase } from '../provider/ovsdb/client';
import { syncLabPods } from '../cli/commands/apply';
import { bestOf, figure, note, timed, type Benchmark } from './harness';

const NETWORKS = 30;
const NODES = 20;
const OWNER = 'bench-connect';
const LAB = 'bench-connect';

function topology(lab: LabStatus, networkCount = NETWORKS, nodeCount = NODES): string {
  const real = lab.nodes.slice(0, nodeCount).map((n) => `  - {name: ${n.name}, id: ${n.id}, chassisId: ${n.chassisId}, gatewayBridge: ${n.gatewayBridge}}`);
  const extra = Array.from({ length: nodeCount - real.length }, (_, i) => `  - {name: nb-only-${i + 1}, id: ${100 + i}, chassisId: nb-only-chassis-${i + 1}}`);
  const namespaces = Array.from({ length: networkCount }, (_, i) => `  - {name: ns-${i}, labels: {net: n${i}}}`).join('\n');
  const pods = `  - {name: a, namespace: ns-0, node: ${lab.nodes[0]!.name}}\n  - {name: b, namespace: ns-${networkCount - 1}, node: ${lab.nodes[1]!.name}}`;
  const inventory = `apiVersion: ovnk/v1alpha1\nkind: Inventory\nmetadata: {name: ${OWNER}}\nspec:\n  zones: central\n  ipFamilies: [IPv4]\n  clusterSubnets: [10.244.0.0/16]\n  serviceCIDRs: [10.96.0.0/16]\n  masqueradeSubnets: [169.254.0.0/17]\n  namespaces:\n${namespaces}\n  pods:\n${pods}\n  nodes:\n${[...real, ...extra].join('\n')}\n`;
  const networks = Array.from({ length: networkCount }, (_, i) =>
    `---\napiVersion: k8s.ovn.org/v1\nkind: ClusterUserDefinedNetwork\nmetadata: {name: net-${i}, labels: {connected: "yes"}}\nspec:\n  namespaceSelector: {matchLabels: {net: n${i}}}\n  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.${i + 1}.0.0/16, hostSubnet: 24}]}}\n`);
  const connect = `---\napiVersion: k8s.ovn.org/v1\nkind: ClusterNetworkConnect\nmetadata: {name: bench}\nspec:\n  networkSelectors:\n  - networkSelectionType: ClusterUserDefinedNetworks\n    clusterUserDefinedNetworkSelector: {networkSelector: {matchLabels: {connected: "yes"}}}\n  connectSubnets: [{cidr: 192.168.0.0/16, networkPrefix: 24}]\n  connectivity: [PodNetwork]\n`;
  return inventory + networks.join('') + connect;
}

async function planFrom(db: OvsdbDatabase, text: string): Promise<TopologyPlan> {
  const result = planTopology(text, await readZoneState(db, OWNER));
  if (!result.ok) throw new Error(`the benchmark topology is unusable: ${result.inputProblems[0]!.message}`);
  if (result.plan.problems.length > 0) throw new Error(`the benchmark topology is refused: ${result.plan.problems[0]!.message}`);
  return result.plan;
}

async function reapply(db: OvsdbDatabase, text: string): Promise<void> {
  const plan = await planFrom(db, text);
  const result = await applyZone(db, plan.zones[0]!, OWNER, plan.state);
  if (result.sent) throw new Error(`a re-apply without change sent ${result.operations} operations: ${result.summary.slice(0, 3).join('; ')}`);
}

async function diff(db: OvsdbDatabase, text: string): Promise<void> {
  const drift = await diffZone(db, (await planFrom(db, text)).zones[0]!, OWNER);
  if (drift.lines.length > 0) throw new Error(`diff without change found drift: ${drift.lines.slice(0, 3).join('; ')}`);
}

/** Seconds from `since` until pod a answers pod b's ping across the connect (30 s at most). */
async function firstPing(plan: TopologyPlan, lab: LabStatus, since: bigint): Promise<number> {
  const [from, to] = plan.zones[0]!.pods;
  const netns = readState(lab.name)!.pods.find((p) => p.namespace === from!.namespace && p.name === from!.name)!.netns;
  const address = to!.addresses[0]!.split('/')[0]!;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (spawnSync('ip', ['netns', 'exec', netns, 'ping', '-c1', '-W0.2', address], { stdio: 'ignore' }).status === 0) {
      return Number(process.hrtime.bigint() - since) / 1e9;
    }
  }
  throw new Error(`${from!.namespace}/${from!.name} never reached ${address} across the connect within 30 s`);
}

/** `ovn-appctl` of the lab's northd (pause / resume). */
function northd(lab: LabStatus, command: string): void {
  const ctl = path.join(lab.dir, 'central', 'northd.ctl');
  const argv = ['ovn-appctl', '-t', ctl, command];
  execFileSync(lab.ovnRoot ? 'chroot' : argv[0]!, lab.ovnRoot ? [lab.ovnRoot, ...argv] : argv.slice(1));
}

/**
 * Apply at full scale, then no-change re-apply and diff against the dump baseline. northd is
 * paused meanwhile: on this 2-core machine its translation of ~29k rows (and the chassis'
 * flow computation behind it) competes with the Northbound server both sides are timed on.
 */
async function measureScale(lab: LabStatus, db: OvsdbDatabase): Promise<void> {
  northd(lab, 'pause');
  try {
    await timeScale(lab, db);
  } finally {
    northd(lab, 'resume');
  }
}

async function timeScale(lab: LabStatus, db: OvsdbDatabase): Promise<void> {
  const text = topology(lab);
  const first = await timed(async () => {
    const plan = await planFrom(db, text);
    return { plan, result: await applyZone(db, plan.zones[0]!, OWNER, plan.state) };
  });
  const { plan, result } = first.value;
  note(`first apply of a connect over ${NETWORKS} Layer3 networks and ${NODES} nodes: ${plan.zones[0]!.rows.length} rows, ${result.operations} operations in ${first.seconds.toFixed(3)} s`);
  const dump = await bestOf(5, () => execFileSync('ovsdb-client', ['dump', lab.nb, 'OVN_Northbound'], { maxBuffer: 1 << 28 }));
  note(`baseline ovsdb-client dump of that Northbound: ${dump.toFixed(3)} s`);
  const again = await bestOf(5, () => reapply(db, text));
  const drift = await bestOf(5, () => diff(db, text));
  note(`no-change re-apply ${again.toFixed(3)} s, diff ${drift.toFixed(3)} s`);
  figure('connect.apply', first.seconds, 's');
  figure('connect.reapply.vs_dump', again / dump, 'x');
  figure('connect.diff.vs_dump', drift / dump, 'x');
  await destroyZone(db, 'central', OWNER);
}

/**
 * Seconds from the start of an apply to the first ping across the connect between pods on two
 * lab nodes. Measured on the lab's 3 real nodes with 2 connected networks: at full scale every
 * chassis of the central layout computes flows for every datapath (about 1,300), which this
 * 2-core machine's ovn-controllers did not finish within minutes, so that would time the machine.
 */
async function measureFirstPing(lab: LabStatus, db: OvsdbDatabase): Promise<void> {
  const start = process.hrtime.bigint();
  const plan = await planFrom(db, topology(lab, 2, lab.nodes.length));
  await applyZone(db, plan.zones[0]!, OWNER, plan.state);
  await syncLabPods(lab, plan.zones[0]!.pods, []);
  const ping = await firstPing(plan, lab, start);
  note(`first ping across the connect (2 networks, ${lab.nodes.length} nodes) ${ping.toFixed(2)} s after the apply began`);
  figure('connect.first_ping', ping, 's');
  await syncLabPods(lab, [], plan.zones[0]!.pods.map((p) => `${p.namespace}/${p.name}`));
  await destroyZone(db, 'central', OWNER);
}

async function run(): Promise<void> {
  const started = await up({ name: LAB, nodes: 3, ovn: DEFAULT_OVN });
  try {
    const db = await nbConnection(started.status.nb);
    await measureFirstPing(started.status, db);
    await measureScale(started.status, db);
  } finally {
    await closeConnections();
    if (!started.alreadyRunning) await down(LAB);
  }
}

export const connectBenchmark: Benchmark = {
  name: 'connect',
  description: `a connect over ${NETWORKS} Layer3 networks and ${NODES} nodes in the lab: apply, no-change re-apply and diff against ovsdb-client dump, first ping`,
  run,
};
