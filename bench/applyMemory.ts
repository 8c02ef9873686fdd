/**
 * `npm run bench -- apply-memory` (issue 30.6): peak RSS of `ovnk apply` of the 500-node per-node
 * file (16 networks, 5,000 namespaces) against a growing number of real zones: Northbound-only
 * zones started on demand (bench/zoneActivation.ts: a real ovsdb-server per zone, all that `apply`
 * reads, alive while the CLI holds the zone, the bench relaying bytes), fresh for each size; the
 * plan's first N zones target them, the other zones an endpoint that does not answer (they fail
 * alone, as `apply` fails an unreachable zone). Sizes: OVNK_BENCH_APPLY_ZONES (e.g. `10,20,500`;
 * 500 is every zone real, the command then exits 0), else 10 and 20. Each command is a child
 * process of its own (`node dist/cli/main.js`), its peak RSS and CPU time read at its exit.
 * Baseline in the same run: `ovnk plan` of the same file. What apply holds beyond the plan should
 * be the zones in flight (`--parallel`, here 4), not the zones applied.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { type Benchmark, figure, note } from './harness';
import { availableMiB } from './nbZones';
import { perNodeTopologyText } from './perNodeTopology';
import { activatedZones, type ActivationStats } from './zoneActivation';

const NODES = 500;
const SIZES = [10, 20] as const;
const PARALLEL = 4;
/** Left free beside the servers in flight (the machine is shared). */
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

/** A CLI command in a child process (asynchronous: this process relays the zones' bytes meanwhile). */
async function cli(dir: string, args: string[]): Promise<Usage> {
  const main = path.resolve(__dirname, '..', 'cli', 'main.js');
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, ['-r', path.join(dir, 'usage.js'), main, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-100_000)));
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const line = /bench-usage (.*)/.exec(stderr)?.[1];
  if (line === undefined) throw new Error(`ovnk ${args[0]} printed no usage (signal ${signal}): ${stderr.slice(-500)}`);
  return { code, stdout, seconds, ...(JSON.parse(line) as { mb: number; cpu: number; live: number }) };
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

/** The real zones that failed, each with its error (a zone may fail alone on a loaded machine). */
function failedReal(stdout: string): string[] {
  const zones = (JSON.parse(stdout) as { zones: Record<string, { endpoint: string; error?: string }> }).zones;
  return Object.entries(zones)
    .filter(([, z]) => z.error !== undefined && !z.endpoint.endsWith('absent.sock'))
    .map(([name, z]) => `${name}: ${z.error}`);
}

/**
 * `apply` of the file: the real zones written, every other zone failed (exit 4; 0 when all are
 * real); what went wrong otherwise, for the caller to say after the figures.
 */
async function applied(dir: string, file: string, real: number) {
  const usage = await cli(dir, ['apply', '-f', file, '-o', 'json', '--parallel', String(PARALLEL)]);
  const written = (usage.stdout.match(/"sent": *true/g) ?? []).length;
  note(`apply of ${real} real zones: ${written} written`);
  const expected = real === NODES ? 0 : 4;
  const failed = failedReal(usage.stdout);
  for (const line of failed.slice(0, 5)) note(`  failed: ${line}`);
  const problem =
    usage.code !== expected || written === 0
      ? `apply of ${real} real zones exited ${usage.code}, not ${expected}: ${written} written, ${failed.length} failed`
      : undefined;
  return { ...usage, written, problem };
}

/** The sizes to run: OVNK_BENCH_APPLY_ZONES (comma-separated zone counts), else SIZES. */
function sizes(): number[] {
  const given = process.env.OVNK_BENCH_APPLY_ZONES;
  const parsed = given ? given.split(',').map(Number) : [...SIZES];
  if (parsed.some((n) => !Number.isInteger(n) || n < 1 || n > NODES))
    throw new Error(`OVNK_BENCH_APPLY_ZONES=${given}: zone counts from 1 to ${NODES}, comma-separated`);
  return parsed;
}

/** Whether the zones in flight, `perZone` MiB each, fit what the machine has free. */
function fits(real: number, perZone: number): boolean {
  const needed = PARALLEL * perZone;
  const room = availableMiB() - RESERVE_MIB;
  if (needed <= room) return true;
  note(`${real} zones skipped: about ${needed.toFixed(0)} MiB of Northbounds in flight, ${room.toFixed(0)} MiB free`);
  return false;
}

const loads = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** The servers' figures: their largest peak, the most alive at once, their starts and CPU. */
function serversText(stats: ActivationStats): string {
  return `a zone's Northbound at most ${stats.peakMiB.toFixed(0)} MiB peak, at most ${stats.mostAlive} alive at once (${stats.starts} starts, ${stats.failedStarts} failed), ${stats.cpu.toFixed(0)} s CPU`;
}

/** `apply` against `real` fresh Northbound-only zones started on demand; their servers' figures. */
async function applySize(dir: string, names: string[], real: number, plan: Usage) {
  const zonesDir = path.join(dir, `zones-${real}`);
  mkdirSync(zonesDir);
  const zones = await activatedZones(zonesDir, names.slice(0, real));
  const started = Date.now();
  const ticker = setInterval(
    () =>
      note(
        `  ${((Date.now() - started) / 60_000).toFixed(0)} min: ${zones.stats.starts} server starts (load ${loads()})`,
      ),
    300_000,
  );
  try {
    const usage = await applied(dir, fileFor(dir, zones.endpoints, real), real);
    const { stats } = zones;
    note(
      `apply of ${NODES} zones, ${real} real: ${usage.mb.toFixed(0)} MiB peak, ${usage.live.toFixed(0)} MiB live at exit, ${usage.cpu.toFixed(1)} s CPU, ${usage.seconds.toFixed(1)} s; ${serversText(stats)} (load ${loads()})`,
    );
    figure(`apply.memory.zones${real}`, usage.mb, 'MiB');
    figure(`apply.memory.zones${real}.vs_plan`, usage.mb / plan.mb, 'x');
    figure(`apply.memory.zones${real}.nb_server`, stats.peakMiB, 'MiB');
    figure(`apply.memory.zones${real}.live`, usage.live, 'MiB');
    figure(`apply.memory.zones${real}.written`, usage.written, 'zones');
    if (usage.problem) throw new Error(usage.problem);
    return { perZone: stats.peakMiB };
  } finally {
    clearInterval(ticker);
    await zones.stop();
    rmSync(zonesDir, { recursive: true, force: true });
  }
}

async function run(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-bench-apply-memory-'));
  writeFileSync(path.join(dir, 'usage.js'), PRELOAD);
  const names = documents().nodes.map((n) => n.name);
  try {
    const planned = await cli(dir, ['plan', '-f', fileFor(dir, new Map(), 0)]);
    note(
      `plan of ${NODES} zones: ${planned.mb.toFixed(0)} MiB peak, ${planned.live.toFixed(0)} MiB live at exit, ${planned.cpu.toFixed(1)} s CPU`,
    );
    figure('apply.memory.plan', planned.mb, 'MiB');
    let perZone = FIRST_GUESS_MIB;
    for (const real of sizes()) {
      if (!fits(real, perZone)) continue;
      perZone = Math.max(FIRST_GUESS_MIB, (await applySize(dir, names, real, planned)).perZone);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const applyMemoryBenchmark: Benchmark = {
  name: 'apply-memory',
  description: `peak RSS of ovnk apply of the ${NODES}-node per-node file against Northbound-only zones (OVNK_BENCH_APPLY_ZONES, else ${SIZES.join(' and ')}; --parallel ${PARALLEL}), beside ovnk plan`,
  run,
};
