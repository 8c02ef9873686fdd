/**
 * `npm run bench -- apply-memory` (issue 30.6): peak RSS of `ovnk apply` of the 500-node per-node
 * file (16 networks, 5,000 namespaces) against a growing number of real zones: Northbound-only
 * zones (bench/nbZones.ts: an ovsdb-server per zone, all that `apply` reads), fresh for each size;
 * the plan's first N zones target them, the other zones an endpoint that does not answer (they
 * fail alone, as `apply` fails an unreachable zone). Sizes: OVNK_BENCH_APPLY_ZONES (e.g.
 * `10,20,36`), else 10 and 20; a size whose servers would pass BUDGET_MIB, or leave less than
 * RESERVE_MIB free, is skipped and said so. Each command is a child process of its own (`node
 * dist/cli/main.js`), its peak RSS and CPU time read at its exit. Baseline in the same run: `ovnk
 * plan` of the same file. What apply holds beyond the plan should be the zones in flight
 * (`--parallel`, here 4), not the zones applied.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { type Benchmark, figure, note } from './harness';
import { availableMiB, residentMiB, startNbZones } from './nbZones';
import { perNodeTopologyText } from './perNodeTopology';

const NODES = 500;
const SIZES = [10, 20] as const;
const PARALLEL = 4;
/** At most this much of Northbound servers at once (the machine is shared), and this much left free. */
const BUDGET_MIB = 6144;
const RESERVE_MIB = 4096;
/** A zone's Northbound before one was measured: a 500-node zone's peaked at 166 MiB (ovsdb-server 3.1). */
const FIRST_GUESS_MIB = 170;

/**
 * Prints the process's peak RSS (MiB), CPU seconds and the heap still live after a full collection
 * at exit (MiB: what every zone left behind, its result among it) on stderr, for the bench to read.
 */
const PRELOAD = `process.on('exit', () => { const u = process.resourceUsage();
require('v8').setFlagsFromString('--expose-gc'); require('vm').runInNewContext('gc')();
const live = process.memoryUsage().heapUsed / 1048576;
require('fs').writeSync(2, '\\nbench-usage ' + JSON.stringify({ mb: u.maxRSS / 1024, cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, live }) + '\\n'); });`;

interface Usage {
  code: number | null;
  stdout: string;
  mb: number;
  cpu: number;
  live: number;
  seconds: number;
}

function cli(dir: string, args: string[]): Usage {
  const main = path.resolve(__dirname, '..', 'cli', 'main.js');
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['-r', path.join(dir, 'usage.js'), main, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const line = /bench-usage (.*)/.exec(run.stderr)?.[1];
  if (line === undefined)
    throw new Error(`ovnk ${args[0]} printed no usage (signal ${run.signal}): ${run.stderr.slice(-500)}`);
  return {
    code: run.status,
    stdout: run.stdout,
    seconds,
    ...(JSON.parse(line) as { mb: number; cpu: number; live: number }),
  };
}

type Document = { kind: string; spec: Record<string, unknown> };

function documents(): { docs: Document[]; inventory: Document; nodes: { name: string }[] } {
  const text = perNodeTopologyText({ nodes: NODES, namespaces: 5000 }, 'per-node');
  const docs = parseAllDocuments(text).map((d) => d.toJS() as Document);
  const inventory = docs.find((d) => d.kind === 'Inventory')!;
  return { docs, inventory, nodes: inventory.spec.nodes as { name: string }[] };
}

/** The file with its first `real` zones targeting `endpoints`, the others `absent`. */
function fileFor(dir: string, endpoints: Map<string, string>, real: number): string {
  const { docs, inventory, nodes } = documents();
  const absent = `unix:${path.join(dir, 'absent.sock')}`;
  const zones = Object.fromEntries(nodes.map((n, i) => [n.name, { nb: i < real ? endpoints.get(n.name)! : absent }]));
  inventory.spec.targets = { zones };
  const file = path.join(dir, `apply-${real}.yaml`);
  writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));
  return file;
}

/** `apply` of the file: the real zones written, every other zone failed (exit 4). */
function applied(dir: string, file: string, real: number): Usage {
  const usage = cli(dir, ['apply', '-f', file, '-o', 'json', '--parallel', String(PARALLEL)]);
  if (usage.code !== 4) throw new Error(`apply of ${real} real zones exited ${usage.code}, not 4 (the absent zones)`);
  const written = (usage.stdout.match(/"sent": *true/g) ?? []).length;
  note(`apply of ${real} real zones: ${written} written (a zone may fail alone on a loaded machine)`);
  if (written === 0) throw new Error(`apply of ${real} real zones wrote none`);
  return usage;
}

/** The sizes to run: OVNK_BENCH_APPLY_ZONES (comma-separated zone counts), else SIZES. */
function sizes(): number[] {
  const given = process.env.OVNK_BENCH_APPLY_ZONES;
  const parsed = given ? given.split(',').map(Number) : [...SIZES];
  if (parsed.some((n) => !Number.isInteger(n) || n < 1 || n > NODES))
    throw new Error(`OVNK_BENCH_APPLY_ZONES=${given}: zone counts from 1 to ${NODES}, comma-separated`);
  return parsed;
}

/** Whether `real` more zones of `perZone` MiB each fit the budget and what the machine has free. */
function fits(real: number, perZone: number): boolean {
  const needed = real * perZone;
  const room = Math.min(BUDGET_MIB, availableMiB() - RESERVE_MIB);
  if (needed <= room) return true;
  note(`${real} zones skipped: about ${needed.toFixed(0)} MiB of Northbounds, ${room.toFixed(0)} MiB within budget`);
  return false;
}

/** `apply` against `real` fresh Northbound-only zones; the servers' memory read before they go. */
async function applySize(
  dir: string,
  names: string[],
  real: number,
  plan: Usage,
): Promise<{ perZone: number; usage: Usage }> {
  const zones = await startNbZones(names.slice(0, real));
  try {
    const usage = applied(dir, fileFor(dir, zones.endpoints, real), real);
    const servers = zones.servers.map((s) => residentMiB(s.pid));
    const perZone = Math.max(...servers.map((s) => s.peak));
    const total = servers.reduce((sum, s) => sum + s.rss, 0);
    note(
      `apply of ${NODES} zones, ${real} real: ${usage.mb.toFixed(0)} MiB peak, ${usage.live.toFixed(0)} MiB live at exit, ${usage.cpu.toFixed(1)} s CPU, ${usage.seconds.toFixed(1)} s; a zone's Northbound at most ${perZone.toFixed(0)} MiB peak, all ${total.toFixed(0)} MiB (load ${loadavg()[0]!.toFixed(1)})`,
    );
    figure(`apply.memory.zones${real}`, usage.mb, 'MiB');
    figure(`apply.memory.zones${real}.vs_plan`, usage.mb / plan.mb, 'x');
    figure(`apply.memory.zones${real}.nb_server`, perZone, 'MiB');
    figure(`apply.memory.zones${real}.live`, usage.live, 'MiB');
    return { perZone, usage };
  } finally {
    await zones.stop();
  }
}

/**
 * What a zone applied leaves live (the slope of the heap live at exit between the fewest and the
 * most zones run), and the peak of the most zones plus that for every other zone of the file: the
 * estimate for all of them real, which this machine cannot hold (a zone's Northbound alone is
 * about 160 MiB).
 */
function extrapolate(runs: Map<number, Usage>): void {
  const sizesRun = [...runs.keys()].sort((a, b) => a - b);
  if (sizesRun.length < 2) return;
  const [fewest, most] = [sizesRun[0]!, sizesRun[sizesRun.length - 1]!];
  const slope = (runs.get(most)!.live - runs.get(fewest)!.live) / (most - fewest);
  const estimate = runs.get(most)!.mb + Math.max(0, slope) * (NODES - most);
  note(
    `live heap per zone applied: ${slope.toFixed(2)} MiB; all ${NODES} zones real: about ${estimate.toFixed(0)} MiB peak`,
  );
  figure('apply.memory.live_per_zone', slope, 'MiB');
  figure(`apply.memory.zones${NODES}.estimate`, estimate, 'MiB');
}

async function run(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-bench-apply-memory-'));
  writeFileSync(path.join(dir, 'usage.js'), PRELOAD);
  const names = documents().nodes.map((n) => n.name);
  try {
    const planned = cli(dir, ['plan', '-f', fileFor(dir, new Map(), 0)]);
    note(
      `plan of ${NODES} zones: ${planned.mb.toFixed(0)} MiB peak, ${planned.live.toFixed(0)} MiB live at exit, ${planned.cpu.toFixed(1)} s CPU`,
    );
    figure('apply.memory.plan', planned.mb, 'MiB');
    let perZone = FIRST_GUESS_MIB;
    const runs = new Map<number, Usage>();
    for (const real of sizes()) {
      if (!fits(real, perZone)) continue;
      const measured = await applySize(dir, names, real, planned);
      perZone = Math.max(FIRST_GUESS_MIB, measured.perZone);
      runs.set(real, measured.usage);
    }
    extrapolate(runs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const applyMemoryBenchmark: Benchmark = {
  name: 'apply-memory',
  description: `peak RSS of ovnk apply of the ${NODES}-node per-node file against Northbound-only zones (OVNK_BENCH_APPLY_ZONES, else ${SIZES.join(' and ')}; --parallel ${PARALLEL}), beside ovnk plan`,
  run,
};
