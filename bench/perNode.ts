/**
 * `npm run bench -- perNode`: `ovnk plan -f FILE -o json` of the per-node scale file (issue 25:
 * 16 networks, 5,000 namespaces) at growing node counts, each in a child process of its own
 * (its peak memory is its own), against the central layout of the same file in the same run.
 * Every zone of a per-node file holds every other node's remote ports and routes (as upstream's
 * per-node Northbounds do), so its document grows with the square of the nodes; the figures say
 * how far that goes here. The JSON is streamed to a sink that only counts it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Benchmark, figure, note } from './harness';
import { perNodeTopologyText } from './perNodeTopology';

const SIZES = [50, 100, 200] as const;
const NAMESPACES = 5000;

/** The child: plan the file as the CLI does, the document streamed to a counting sink; prints seconds, MB and bytes. */
const child = `
const { Writable } = require('node:stream');
const { plan } = require(process.argv[1] + '/cli/commands/plan.js');
const { writeJson } = require(process.argv[1] + '/cli/jsonStream.js');
let bytes = 0;
const sink = new Writable({ write(chunk, _e, done) { bytes += chunk.length; done(); } });
const start = process.hrtime.bigint();
plan({ file: [process.argv[2]], output: 'json' })
  .then((result) => writeJson(sink, result.document).then(() => result.exitCode ?? 0))
  .then((code) => {
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    process.stdout.write(JSON.stringify({ code, seconds, mb: process.resourceUsage().maxRSS / 1024, bytes }));
  });
`;

interface Run {
  code: number;
  seconds: number;
  mb: number;
  bytes: number;
}

function planIn(file: string): Run {
  const dist = path.resolve(__dirname, '..');
  const result = spawnSync(process.execPath, ['--max-old-space-size=4096', '-e', child, dist, file], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (result.status !== 0) throw new Error(`plan of ${file} failed: ${result.stderr.slice(-500)}`);
  return JSON.parse(result.stdout) as Run;
}

export const perNodeBenchmark: Benchmark = {
  name: 'perNode',
  description: `plan -o json of a per-node file (16 networks, ${NAMESPACES} namespaces) against its central layout`,
  async run() {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-bench-per-node-'));
    try {
      for (const nodes of SIZES) {
        const runs = (['central', 'per-node'] as const).map((zones) => {
          const file = path.join(dir, `${zones}-${nodes}.yaml`);
          writeFileSync(file, perNodeTopologyText({ nodes, namespaces: NAMESPACES }, zones));
          return planIn(file);
        });
        const [central, perNode] = runs as [Run, Run];
        note(
          `${nodes} nodes: central ${central.seconds.toFixed(1)} s ${central.mb.toFixed(0)} MB, per-node ${perNode.seconds.toFixed(1)} s ${perNode.mb.toFixed(0)} MB ${(perNode.bytes / 1e6).toFixed(0)} MB of JSON`,
        );
        figure(`per-node-plan-${nodes}-nodes`, perNode.seconds, 's');
        figure(`per-node-plan-${nodes}-nodes-peak`, perNode.mb, 'MB');
        figure(`per-node-plan-${nodes}-nodes-json`, perNode.bytes / 1e6, 'MB');
        figure(`per-node-vs-central-${nodes}-nodes`, perNode.seconds / central.seconds, 'x');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
