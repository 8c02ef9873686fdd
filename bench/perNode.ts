/**
 * `npm run bench -- perNode`: `ovnk plan` of the per-node scale file (issue 25: 16 networks, 5,000
 * namespaces) at growing node counts, each in a child process of its own (its peak memory and CPU
 * time are its own), against the central layout of the same file in the same run.
 * Every zone of a per-node file holds every other node's remote ports and routes (as upstream's
 * per-node Northbounds do), so the whole `-o json` document grows with the square of the nodes
 * (65 MB at 50 nodes, about 100 GB at 2,000): it is measured up to 200 nodes, streamed to a sink that
 * only counts it; past that the text plan (every zone rendered, its rows counted per table) and one
 * zone's `--zone` JSON document. CPU seconds are figures too: on a shared machine they move less than wall time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Benchmark, figure, note } from './harness';
import { perNodeTopologyText } from './perNodeTopology';

const JSON_SIZES = [50, 100, 200] as const;
const TEXT_SIZES = [500, 1000, 2000] as const;
const NAMESPACES = 5000;

/** The child: plan the file as the CLI does, the document streamed to a counting sink; prints seconds, MB and bytes. */
const child = `
const { Writable } = require('node:stream');
const { plan } = require(process.argv[1] + '/cli/commands/plan.js');
const { writeJson } = require(process.argv[1] + '/cli/jsonStream.js');
const [output, zone] = [process.argv[3], process.argv[4] || undefined];
let bytes = 0;
const sink = new Writable({ write(chunk, _e, done) { bytes += chunk.length; done(); } });
const start = process.hrtime.bigint();
plan({ file: [process.argv[2]], output, zone })
  .then((result) => {
    const written = output === 'json' ? writeJson(sink, result.document) : (bytes = result.text.length, Promise.resolve());
    return written.then(() => result.exitCode ?? 0);
  })
  .then((code) => {
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const usage = process.resourceUsage();
    const cpu = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
    process.stdout.write(JSON.stringify({ code, seconds, cpu, mb: usage.maxRSS / 1024, bytes }));
  });
`;

interface Run {
  code: number;
  seconds: number;
  cpu: number;
  mb: number;
  bytes: number;
}

function planIn(file: string, output: 'json' | 'text', zone = ''): Run {
  const dist = path.resolve(__dirname, '..');
  const result = spawnSync(process.execPath, ['--max-old-space-size=4096', '-e', child, dist, file, output, zone], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (result.status !== 0) throw new Error(`plan of ${file} failed: ${result.stderr.slice(-500)}`);
  return JSON.parse(result.stdout) as Run;
}

/** Plans the per-node file and its central layout; figures named `per-node-<what>-<nodes>-nodes`. */
function measure(dir: string, nodes: number, what: string, output: 'json' | 'text', zone = ''): void {
  const runs = (['central', 'per-node'] as const).map((zones) => {
    const file = path.join(dir, `${zones}-${nodes}.yaml`);
    writeFileSync(file, perNodeTopologyText({ nodes, namespaces: NAMESPACES }, zones));
    return planIn(file, output, zones === 'per-node' ? zone : '');
  });
  const [central, perNode] = runs as [Run, Run];
  note(
    `${nodes} nodes, ${what}: central ${central.seconds.toFixed(1)} s (${central.cpu.toFixed(1)} s CPU) ${central.mb.toFixed(0)} MB, per-node ${perNode.seconds.toFixed(1)} s (${perNode.cpu.toFixed(1)} s CPU) ${perNode.mb.toFixed(0)} MB, ${(perNode.bytes / 1e6).toFixed(1)} MB written`,
  );
  figure(`per-node-${what}-${nodes}-nodes`, perNode.seconds, 's');
  figure(`per-node-${what}-${nodes}-nodes-cpu`, perNode.cpu, 's');
  figure(`per-node-${what}-${nodes}-nodes-peak`, perNode.mb, 'MB');
  figure(`per-node-${what}-${nodes}-nodes-output`, perNode.bytes / 1e6, 'MB');
  figure(`per-node-vs-central-${what}-${nodes}-nodes`, perNode.cpu / central.cpu, 'x');
}

export const perNodeBenchmark: Benchmark = {
  name: 'perNode',
  description: `plan of a per-node file (16 networks, ${NAMESPACES} namespaces) against its central layout, to 2,000 nodes`,
  async run() {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-bench-per-node-'));
    try {
      for (const nodes of JSON_SIZES) measure(dir, nodes, 'plan-json', 'json');
      for (const nodes of TEXT_SIZES) {
        measure(dir, nodes, 'plan-text', 'text');
        measure(dir, nodes, 'plan-zone-json', 'json', 'node-0000');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
