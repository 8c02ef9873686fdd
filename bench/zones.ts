/**
 * `npm run bench -- zones`: apply, no-change re-apply and diff of one topology (8 Layer3 networks
 * and a connect over them) across 3, 10 and 20 per-node zones of a lab without data plane (each
 * zone its own NB, SB and northd): the runtime's cluster entry as the CLI runs it, every zone
 * at once (the default --parallel 8) against the same work one zone at a time (--parallel 1) in
 * the same run, rounds alternating. The step is timed as the zone run (loading, planning and
 * reading every zone's state first are not) and as the whole command (what a user waits for:
 * every zone's state read and the plan too); every zone's northd settles before each step.
 * Figures: the speed-up of each step and its cost per zone (seconds / zones, both ways), and where
 * the time goes (zoneCpu.ts): our CPU and the zones' servers' CPU per zone, and the speed-up that
 * CPU allows on this machine's cores (cpu_bound). Each zone runs its own servers, so on a machine
 * with few cores the speed-up is bounded by the CPU of both sides, not by the loop.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { destroy } from '../cli/commands/destroy';
import { clusterPlanFor, fileTarget } from '../cli/commands/fileTarget';
import { zoneRunsOf, zoneTargets } from '../cli/commands/zoneRuns';
import { setQuiet } from '../cli/progress';
import { down, type LabStatus, up } from '../lab';
import { exec, inRoot } from '../lab/exec';
import {
  applyCluster,
  type ClusterResult,
  closeConnections,
  DEFAULT_PARALLEL,
  diffCluster,
  type Drift,
  type ZoneResult,
} from '../provider/runtime/cli';
import { type Benchmark, figure, note } from './harness';
import {
  coresBusy,
  type CpuSplit,
  cpuBound,
  cpuSplit,
  serversOf,
  splitText,
  type ZoneDaemon,
  zoneDaemons,
} from './zoneCpu';

const SIZES = [3, 10, 20] as const;
const NETWORKS = 8;
const RUNS = 3;

function network(i: number): object {
  return {
    apiVersion: 'k8s.ovn.org/v1',
    kind: 'ClusterUserDefinedNetwork',
    metadata: { name: `net-${i}`, labels: { bench: 'zones' } },
    spec: {
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': `ns-${i}` } },
      network: {
        topology: 'Layer3',
        layer3: { role: 'Primary', subnets: [{ cidr: `10.${i}.0.0/16`, hostSubnet: 24 }] },
      },
    },
  };
}

const connect = {
  apiVersion: 'k8s.ovn.org/v1',
  kind: 'ClusterNetworkConnect',
  metadata: { name: 'bench-zones' },
  spec: {
    networkSelectors: [
      {
        networkSelectionType: 'ClusterUserDefinedNetworks',
        clusterUserDefinedNetworkSelector: { networkSelector: { matchLabels: { bench: 'zones' } } },
      },
    ],
    connectSubnets: [{ cidr: '192.168.0.0/16', networkPrefix: 24 }],
    connectivity: ['PodNetwork'],
  },
};

/** The topology over the lab's first `zones` nodes, each its own zone with its own target. */
function topology(lab: LabStatus, zones: number): string {
  const nodes = lab.nodes.slice(0, zones);
  const inventory = {
    apiVersion: 'ovnk/v1alpha1',
    kind: 'Inventory',
    metadata: { name: `bench-zones-${zones}` },
    spec: {
      zones: 'per-node',
      clusterSubnets: ['10.244.0.0/16'],
      namespaces: Array.from({ length: NETWORKS }, (_, i) => ({ name: `ns-${i}` })),
      nodes: nodes.map(({ name, id, chassisId }) => ({ name, id, chassisId })),
      targets: { zones: Object.fromEntries(lab.zones.slice(0, zones).map((z) => [z.name, { nb: z.nb }])) },
    },
  };
  const objects = [inventory, ...Array.from({ length: NETWORKS }, (_, i) => network(i)), connect];
  return objects.map((o) => stringify(o)).join('---\n');
}

type Step = 'apply' | 'reapply' | 'diff';
/** A step's zone run, and its whole command (state reads and plan included). */
type Timed = { run: CpuSplit; command: CpuSplit };
type Timings = Record<Step, Timed>;
const STEPS: Step[] = ['apply', 'reapply', 'diff'];

/** What a step must have done in every zone, else the wrong work was timed. */
const expected: Record<Step, (value: ZoneResult | Drift) => boolean> = {
  apply: (r) => (r as ZoneResult).sent,
  reapply: (r) => !(r as ZoneResult).sent,
  diff: (d) => (d as Drift).lines.length === 0,
};

/**
 * One step as `ovnk apply`/`diff` run it (cli/commands/zoneRuns.ts), `parallel` zones at a time:
 * loading, reading every zone's state and planning, then the loop over the zones (the runtime's
 * cluster entry), timed alone and with what comes before it.
 */
async function timeStep(file: string, step: Step, parallel: number, daemons: ZoneDaemon[]): Promise<Timed> {
  let run: CpuSplit | undefined;
  const { split: command } = await cpuSplit(daemons, async () => {
    const target = await fileTarget({ file, parallel: String(parallel) });
    const plan = await clusterPlanFor(target, undefined, false);
    const names = plan.topology.zones.map((z) => z.name);
    const targets = zoneTargets(target, step, names, () => '');
    const work = (): Promise<ClusterResult<ZoneResult | Drift>> =>
      step === 'diff' ? diffCluster(plan, targets) : applyCluster(plan, targets);
    const { split, value: result } = await cpuSplit(daemons, work);
    run = split;
    const value = zoneRunsOf(target, names, result.zones);
    const wrong = value.find((r) => !r.ok || !expected[step](r.value));
    if (wrong) throw new Error(`${step} did not do what is timed in zone ${wrong.zone}: ${JSON.stringify(wrong)}`);
  });
  return { run: run!, command };
}

/** Until every zone's northd has caught up, so it does not compete with the step timed next. */
async function settle(lab: LabStatus, zones: number): Promise<void> {
  await Promise.all(
    lab.zones
      .slice(0, zones)
      .map((z) => exec(inRoot(lab.ovnRoot, ['ovn-nbctl', `--db=${z.nb}`, '--wait=sb', '--timeout=120', 'sync']))),
  );
}

/** One round with `parallel` zones at a time: destroy (untimed), apply, a no-change re-apply, diff. */
async function round(lab: LabStatus, file: string, zones: number, parallel: number): Promise<Timings> {
  const removed = await destroy({ file });
  if (removed.exitCode) throw new Error(`destroy failed: ${JSON.stringify(removed.document).slice(0, 400)}`);
  const daemons = zoneDaemons(
    lab.name,
    lab.nodes.slice(0, zones).map((n) => n.name),
  );
  await settle(lab, zones);
  const apply = await timeStep(file, 'apply', parallel, daemons);
  await settle(lab, zones);
  const reapply = await timeStep(file, 'reapply', parallel, daemons);
  return { apply, reapply, diff: await timeStep(file, 'diff', parallel, daemons) };
}

const best = (a: Timings | undefined, b: Timings): Timings =>
  Object.fromEntries(STEPS.map((s) => [s, a && a[s].run.wall <= b[s].run.wall ? a[s] : b[s]])) as Timings;

/** Best of RUNS rounds each way, one at a time and DEFAULT_PARALLEL at a time alternating, so load drift hits both. */
async function measureSize(lab: LabStatus, dir: string, zones: number): Promise<void> {
  const file = path.join(dir, `zones-${zones}.yaml`);
  writeFileSync(file, topology(lab, zones));
  let serial: Timings | undefined;
  let parallel: Timings | undefined;
  for (let i = 0; i < RUNS; i++) {
    serial = best(serial, await round(lab, file, zones, 1));
    parallel = best(parallel, await round(lab, file, zones, DEFAULT_PARALLEL));
  }
  await destroy({ file });
  for (const step of STEPS) {
    const [one, many] = [serial![step].run, parallel![step].run];
    const command = parallel![step].command;
    note(`${zones} zones ${step}: one at a time ${splitText(one)}`);
    note(`${zones} zones ${step}: ${DEFAULT_PARALLEL} at a time ${splitText(many)}`);
    figure(`zones.${step}.${zones}.speedup`, one.wall / many.wall, 'x one-at-a-time');
    figure(`zones.${step}.${zones}.per_zone`, many.wall / zones, 's');
    figure(`zones.${step}.${zones}.per_zone.one_at_a_time`, one.wall / zones, 's');
    figure(`zones.${step}.${zones}.our_cpu_per_zone`, many.ours / zones, 's');
    figure(`zones.${step}.${zones}.servers_cpu_per_zone`, serversOf(many) / zones, 's');
    figure(`zones.${step}.${zones}.cpu_bound`, cpuBound(one, many), 'x one-at-a-time');
    figure(`zones.${step}.${zones}.one_at_a_time.cores_busy`, coresBusy(one), 'cores');
    note(`${zones} zones ${step}: the whole command ${DEFAULT_PARALLEL} at a time ${splitText(command)}`);
    figure(`zones.${step}.${zones}.command.per_zone`, command.wall / zones, 's');
    figure(`zones.${step}.${zones}.command.our_cpu_per_zone`, command.ours / zones, 's');
  }
}

async function run(): Promise<void> {
  setQuiet(true);
  const name = `bz${process.pid % 100000}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-bench-zones-'));
  const largest = Math.max(...SIZES);
  const started = await up({ name, nodes: largest, ovn: 'trixie', zones: 'per-node', dataPlane: false });
  note(`lab ${name}: ${largest} per-node zones without data plane, up in ${started.seconds.toFixed(2)} s`);
  try {
    for (const zones of SIZES) await measureSize(started.status, dir, zones);
  } finally {
    await closeConnections();
    await down(name);
    rmSync(dir, { recursive: true, force: true });
  }
}

export const zonesBenchmark: Benchmark = {
  name: 'zones',
  description: `apply, no-change re-apply and diff over ${SIZES.join(', ')} per-node zones, ${DEFAULT_PARALLEL} at a time against one at a time`,
  run,
};
