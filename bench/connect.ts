/**
 * `npm run bench -- connect`: one ClusterNetworkConnect over 30 primary Layer3 networks and 20
 * nodes (central zone) applied to a lab's Northbound (the lab's 3 nodes are real chassis, the
 * other 17 exist only in NB), then re-applied with no change and diffed, through the runtime path
 * the CLI takes. Baseline in the same run: `ovsdb-client dump` of that Northbound. Targets:
 * re-apply and diff each under 1.5x the dump and under 1 s. Then the time from the start of an
 * apply to the first ping that crosses the connect between real pods on two lab nodes, on growing
 * sizes up to the full one, each given a bounded time to settle: the report names the largest
 * size whose first ping came, and the first that did not settle.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { syncLabPods } from '../cli/commands/labPods';
import { down, DEFAULT_OVN, type CentralLabStatus as LabStatus, nbctl, pingWithRetries, readState, up } from '../lab';
import type { OvsdbDatabase } from '../provider/ovsdb/client';
import { applyZone, closeConnections, destroyZone, nbConnection, type TopologyPlan } from '../provider/runtime/cli';
import { bestOf, figure, note, timed, type Benchmark } from './harness';
import { diffUnchanged, planFrom, reapplyUnchanged } from './zoneRuns';

const NETWORKS = 30;
const NODES = 20;
const OWNER = 'bench-connect';
const LAB = 'bench-connect';

function topology(lab: LabStatus, networkCount = NETWORKS, nodeCount = NODES): string {
  const real = lab.nodes
    .slice(0, nodeCount)
    .map((n) => `  - {name: ${n.name}, id: ${n.id}, chassisId: ${n.chassisId}, gatewayBridge: ${n.gatewayBridge}}`);
  const extra = Array.from(
    { length: nodeCount - real.length },
    (_, i) => `  - {name: nb-only-${i + 1}, id: ${100 + i}, chassisId: nb-only-chassis-${i + 1}}`,
  );
  const namespaces = Array.from({ length: networkCount }, (_, i) => `  - {name: ns-${i}, labels: {net: n${i}}}`).join(
    '\n',
  );
  const pods = `  - {name: a, namespace: ns-0, node: ${lab.nodes[0]!.name}}\n  - {name: b, namespace: ns-${networkCount - 1}, node: ${lab.nodes[1]!.name}}`;
  const inventory = `apiVersion: ovnk/v1alpha1\nkind: Inventory\nmetadata: {name: ${OWNER}}\nspec:\n  zones: central\n  ipFamilies: [IPv4]\n  clusterSubnets: [10.244.0.0/16]\n  serviceCIDRs: [10.96.0.0/16]\n  masqueradeSubnets: [169.254.0.0/17]\n  namespaces:\n${namespaces}\n  pods:\n${pods}\n  nodes:\n${[...real, ...extra].join('\n')}\n`;
  const networks = Array.from(
    { length: networkCount },
    (_, i) =>
      `---\napiVersion: k8s.ovn.org/v1\nkind: ClusterUserDefinedNetwork\nmetadata: {name: net-${i}, labels: {connected: "yes"}}\nspec:\n  namespaceSelector: {matchLabels: {net: n${i}}}\n  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.${i + 1}.0.0/16, hostSubnet: 24}]}}\n`,
  );
  const connect = `---\napiVersion: k8s.ovn.org/v1\nkind: ClusterNetworkConnect\nmetadata: {name: bench}\nspec:\n  networkSelectors:\n  - networkSelectionType: ClusterUserDefinedNetworks\n    clusterUserDefinedNetworkSelector: {networkSelector: {matchLabels: {connected: "yes"}}}\n  connectSubnets: [{cidr: 192.168.0.0/16, networkPrefix: 24}]\n  connectivity: [PodNetwork]\n`;
  return inventory + networks.join('') + connect;
}

/** Sizes (networks, nodes) the first ping is measured on, smallest first; the last is the full size. */
const PING_SIZES: [number, number][] = [
  [2, 3],
  [10, 3],
  [NETWORKS, 3],
  [NETWORKS, 10],
  [NETWORKS, NODES],
];
/** How long one size may take from the start of its apply to the first reply. */
const SETTLE_BUDGET_MS = 90_000;

/**
 * Seconds from `since` until pod a answers pod b's ping across the connect; undefined when none
 * came within the budget.
 */
async function firstPing(plan: TopologyPlan, lab: LabStatus, since: bigint): Promise<number | undefined> {
  const [from, to] = plan.zones[0]!.pods;
  const netns = readState(lab.name)!.pods.find((p) => p.namespace === from!.namespace && p.name === from!.name)!.netns;
  const address = to!.addresses[0]!.split('/')[0]!;
  const budgetMs = SETTLE_BUDGET_MS - Number(process.hrtime.bigint() - since) / 1e6;
  const replied = await pingWithRetries(netns, address, { budgetMs, waitSeconds: 0.2 });
  return replied ? Number(process.hrtime.bigint() - since) / 1e9 : undefined;
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
    await destroyZone(db, 'central', OWNER); // before northd resumes: it never translates the full size here
    northd(lab, 'resume');
  }
}

async function timeScale(lab: LabStatus, db: OvsdbDatabase): Promise<void> {
  const text = topology(lab);
  const first = await timed(async () => {
    const plan = await planFrom(db, text, OWNER);
    return { plan, result: await applyZone(db, plan.zones[0]!, OWNER, plan.state) };
  });
  const { plan, result } = first.value;
  note(
    `first apply of a connect over ${NETWORKS} Layer3 networks and ${NODES} nodes: ${plan.zones[0]!.rows.length} rows, ${result.operations} operations in ${first.seconds.toFixed(3)} s`,
  );
  const dump = await bestOf(5, () =>
    execFileSync('ovsdb-client', ['dump', lab.nb, 'OVN_Northbound'], { maxBuffer: 1 << 28 }),
  );
  note(`baseline ovsdb-client dump of that Northbound: ${dump.toFixed(3)} s`);
  const again = await bestOf(5, () => reapplyUnchanged(db, text, OWNER));
  const drift = await bestOf(5, () => diffUnchanged(db, text, OWNER));
  note(`no-change re-apply ${again.toFixed(3)} s, diff ${drift.toFixed(3)} s`);
  figure('connect.apply', first.seconds, 's');
  figure('connect.reapply.vs_dump', again / dump, 'x');
  figure('connect.diff.vs_dump', drift / dump, 'x');
}

/**
 * Seconds from the start of an apply to the first ping across the connect between pods on two
 * lab nodes, at one size (undefined when it did not settle in time). Everything is removed
 * afterwards and the chassis are given time to settle before the next size.
 */
async function firstPingAt(
  lab: LabStatus,
  db: OvsdbDatabase,
  networks: number,
  nodes: number,
): Promise<number | undefined> {
  const start = process.hrtime.bigint();
  const plan = await planFrom(db, topology(lab, networks, nodes), OWNER);
  try {
    await applyZone(db, plan.zones[0]!, OWNER, plan.state);
    await syncLabPods(lab, plan.zones[0]!.pods, []);
    return await firstPing(plan, lab, start);
  } finally {
    await syncLabPods(
      lab,
      [],
      plan.zones[0]!.pods.map((p) => `${p.namespace}/${p.name}`),
    );
    await destroyZone(db, 'central', OWNER);
    settle(lab);
  }
}

/** Waits (bounded) for the chassis to catch up after a size is removed; a timeout is reported, not fatal. */
function settle(lab: LabStatus): void {
  try {
    nbctl(lab, '--wait=hv', '--timeout=120', 'sync');
  } catch {
    note('the chassis had not caught up 120 s after the removal');
  }
}

/**
 * First ping on growing sizes: in the central layout every chassis computes flows for every
 * datapath (about 1,300 at full size), which this 2-core machine's ovn-controllers may not
 * finish in the budget; the sizes after the first that does not settle are not tried.
 */
async function measureFirstPing(lab: LabStatus, db: OvsdbDatabase): Promise<void> {
  let largest: string | undefined;
  for (const [networks, nodes] of PING_SIZES) {
    const size = `${networks} networks, ${nodes} nodes of which ${Math.min(nodes, lab.nodes.length)} real chassis`;
    const seconds = await firstPingAt(lab, db, networks, nodes);
    if (seconds === undefined) {
      note(
        `first ping across the connect (${size}): no reply within ${SETTLE_BUDGET_MS / 1000} s of the apply (the chassis did not settle)`,
      );
      break;
    }
    note(`first ping across the connect (${size}) ${seconds.toFixed(2)} s after the apply began`);
    figure(`connect.first_ping.${networks}x${nodes}`, seconds, 's');
    largest = size;
  }
  note(`largest size whose first ping came: ${largest ?? 'none'}`);
}

async function run(): Promise<void> {
  const started = await up({ name: LAB, nodes: 3, ovn: DEFAULT_OVN, zones: 'central' });
  const lab = started.status as LabStatus;
  try {
    const db = await nbConnection(lab.nb);
    await measureScale(lab, db);
    await measureFirstPing(lab, db);
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
