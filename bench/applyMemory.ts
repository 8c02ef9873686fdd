/**
 * `npm run bench -- apply-memory` (issue 30.6): peak RSS of `ovnk apply` of the 500-node per-node
 * file (16 networks, 5,000 namespaces) against a growing number of real zones: a lab without data
 * plane of 20 per-node zones; the plan's first 5, then 20 zones target the lab's Northbounds, the
 * other zones an endpoint that does not answer (they fail alone, as `apply` fails an unreachable
 * zone). Each command is a child process of its own (`node dist/cli/main.js`), its peak RSS and CPU
 * time read at its exit. Baseline in the same run: `ovnk plan` of the same file. What apply holds
 * beyond the plan should be the zones in flight (`--parallel`, here 4, below the fewest zones
 * applied so every size has as many in flight), not the zones applied.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { down, type LabStatus, up } from '../lab';
import { type Benchmark, figure, note } from './harness';
import { perNodeTopologyText } from './perNodeTopology';

const NODES = 500;
const SIZES = [5, 20] as const;
const PARALLEL = 4;

/** Prints the process's peak RSS (MiB) and CPU seconds on stderr at exit, for the bench to read. */
const PRELOAD = `process.on('exit', () => { const u = process.resourceUsage();
require('fs').writeSync(2, '\\nbench-usage ' + JSON.stringify({ mb: u.maxRSS / 1024, cpu: (u.userCPUTime + u.systemCPUTime) / 1e6 }) + '\\n'); });`;

interface Usage {
  code: number | null;
  stdout: string;
  mb: number;
  cpu: number;
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
  return { code: run.status, stdout: run.stdout, seconds, ...(JSON.parse(line) as { mb: number; cpu: number }) };
}

/** The file with its first `real` zones targeting the lab's Northbounds, the others `absent`. */
function fileFor(dir: string, lab: LabStatus, real: number): string {
  const docs = parseAllDocuments(perNodeTopologyText({ nodes: NODES, namespaces: 5000 }, 'per-node')).map(
    (d) => d.toJS() as { kind: string; spec: Record<string, unknown> },
  );
  const inventory = docs.find((d) => d.kind === 'Inventory')!;
  const nodes = inventory.spec.nodes as { name: string }[];
  const absent = `unix:${path.join(dir, 'absent.sock')}`;
  const zones = Object.fromEntries(nodes.map((n, i) => [n.name, { nb: i < real ? lab.zones[i]!.nb : absent }]));
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

async function run(): Promise<void> {
  const name = `am${process.pid % 100000}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-bench-apply-memory-'));
  writeFileSync(path.join(dir, 'usage.js'), PRELOAD);
  const largest = Math.max(...SIZES);
  const started = await up({ name, nodes: largest, ovn: 'trixie', zones: 'per-node', dataPlane: false });
  try {
    const planned = cli(dir, ['plan', '-f', fileFor(dir, started.status, 0)]);
    note(`plan of ${NODES} zones: ${planned.mb.toFixed(0)} MiB peak, ${planned.cpu.toFixed(1)} s CPU`);
    figure('apply.memory.plan', planned.mb, 'MiB');
    for (const real of SIZES) {
      const file = fileFor(dir, started.status, real);
      const usage = applied(dir, file, real);
      note(
        `apply of ${NODES} zones, ${real} real: ${usage.mb.toFixed(0)} MiB peak, ${usage.cpu.toFixed(1)} s CPU, ${usage.seconds.toFixed(1)} s`,
      );
      figure(`apply.memory.zones${real}`, usage.mb, 'MiB');
      figure(`apply.memory.zones${real}.vs_plan`, usage.mb / planned.mb, 'x');
      const removed = cli(dir, ['destroy', '-f', file, '-o', 'json']);
      if (removed.code !== 4) throw new Error(`destroy exited ${removed.code}, not 4 (the absent zones)`);
    }
  } finally {
    await down(name);
    rmSync(dir, { recursive: true, force: true });
  }
}

export const applyMemoryBenchmark: Benchmark = {
  name: 'apply-memory',
  description: `peak RSS of ovnk apply of the ${NODES}-node per-node file against ${SIZES.join(' and ')} real zones (--parallel ${PARALLEL}), beside ovnk plan`,
  run,
};
