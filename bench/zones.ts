/**
 * `npm run bench -- zones`: apply, no-change re-apply and diff of one topology (8 Layer3 networks
 * and a connect over them) across 3, 10 and 20 per-node zones of a lab without data plane (each
 * zone its own NB, SB and northd), through the CLI's own commands, every zone at once (the
 * default --parallel 8) against the same work one zone at a time (--parallel 1) in the same run.
 * Figures: the parallel speed-up of each and the per-zone cost (seconds / zones, both ways).
 * Each zone runs its own ovsdb-servers and northd, so on a machine with few cores the speed-up
 * is bounded by what those servers get of the CPU, not by our loop.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { apply } from '../cli/commands/apply';
import { destroy } from '../cli/commands/destroy';
import { diff } from '../cli/commands/diff';
import type { CommandResult } from '../cli/contract';
import { setQuiet } from '../cli/progress';
import { down, type LabStatus, up } from '../lab';
import { closeConnections, DEFAULT_PARALLEL } from '../provider/runtime';
import { type Benchmark, figure, note, timed } from './harness';

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

/** The part of a command's document the benchmark checks. */
interface Outcome {
  ok?: boolean;
  zones?: Record<string, { sent?: boolean }>;
}

/** A command's result, refusing anything but the expected outcome (the wrong work would be timed). */
async function expectOk(run: Promise<CommandResult>, what: string, check?: (doc: Outcome) => boolean): Promise<void> {
  const result = await run;
  const doc = result.document as Outcome;
  if ((result.exitCode ?? 0) !== 0 || doc.ok !== true || (check && !check(doc)))
    throw new Error(`${what} did not do what is timed: ${JSON.stringify(doc).slice(0, 400)}`);
}

const sentNothing = (doc: Outcome) => Object.values(doc.zones ?? {}).every((z) => z.sent === false);

type Step = 'apply' | 'reapply' | 'diff';
type Timings = Record<Step, number>;
const STEPS: Step[] = ['apply', 'reapply', 'diff'];

/** One round with `parallel` zones at a time: destroy (untimed), apply, a no-change re-apply, diff. */
async function round(file: string, parallel: number): Promise<Timings> {
  const options = { file, parallel: String(parallel) };
  await expectOk(destroy(options), 'destroy');
  const first = await timed(() => expectOk(apply(options), 'apply'));
  const again = await timed(() => expectOk(apply(options), 'a no-change re-apply', sentNothing));
  const drift = await timed(() => expectOk(diff(options), 'diff'));
  return { apply: first.seconds, reapply: again.seconds, diff: drift.seconds };
}

const best = (a: Timings, b: Timings): Timings =>
  Object.fromEntries(STEPS.map((s) => [s, Math.min(a[s], b[s])])) as Timings;

/** Best of RUNS rounds each way, one at a time and DEFAULT_PARALLEL at a time alternating, so load drift hits both. */
async function measureSize(lab: LabStatus, dir: string, zones: number): Promise<void> {
  const file = path.join(dir, `zones-${zones}.yaml`);
  writeFileSync(file, topology(lab, zones));
  let serial: Timings = { apply: Infinity, reapply: Infinity, diff: Infinity };
  let parallel = serial;
  for (let i = 0; i < RUNS; i++) {
    serial = best(serial, await round(file, 1));
    parallel = best(parallel, await round(file, DEFAULT_PARALLEL));
  }
  await expectOk(destroy({ file }), 'destroy');
  for (const step of STEPS) {
    note(
      `${zones} zones ${step}: one at a time ${serial[step].toFixed(3)} s, ${DEFAULT_PARALLEL} at a time ${parallel[step].toFixed(3)} s`,
    );
    figure(`zones.${step}.${zones}.speedup`, serial[step] / parallel[step], 'x one-at-a-time');
    figure(`zones.${step}.${zones}.per_zone`, parallel[step] / zones, 's');
    figure(`zones.${step}.${zones}.per_zone.one_at_a_time`, serial[step] / zones, 's');
  }
}

async function run(): Promise<void> {
  setQuiet(true);
  const name = `bz${process.pid % 100000}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-bench-zones-'));
  const largest = SIZES[SIZES.length - 1];
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
