/**
 * Benchmark of the embedded lab: wall time of `up` for 3 nodes (ready: sshd answers, chassis
 * registered) and of `down`, central on both OVNs and per-node (one NB/SB/northd per node) on
 * trixie, against a same-run baseline: starting one bare ovsdb-server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { down, type OvnFlavor, up, type ZoneLayout } from '../lab';
import { exec } from '../lab/exec';
import { stopDaemons } from '../lab/processes';
import { type Benchmark, figure, note, timed } from './harness';

const RUNS = 3;

/** Create a database and start one detached ovsdb-server on it: the smallest daemon the lab starts. */
async function bareOvsdbServer(): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-bench-'));
  try {
    const { seconds } = await timed(async () => {
      await exec(['ovsdb-tool', 'create', path.join(dir, 'nb.db'), '/usr/share/ovn/ovn-nb.ovsschema']);
      await exec([
        'ovsdb-server',
        path.join(dir, 'nb.db'),
        `--remote=punix:${path.join(dir, 'nb.sock')}`,
        `--pidfile=${path.join(dir, 'nb.pid')}`,
        `--unixctl=${path.join(dir, 'nb.ctl')}`,
        `--log-file=${path.join(dir, 'nb.log')}`,
        '--detach',
        '--no-chdir',
      ]);
    });
    await stopDaemons([{ name: 'bench/nb', program: 'ovsdb-server', pidFile: path.join(dir, 'nb.pid') }]);
    return seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function labRound(name: string, ovn: OvnFlavor, zones: ZoneLayout): Promise<{ up: number; down: number }> {
  const started = await timed(() => up({ name, nodes: 3, ovn, zones }));
  const stopped = await timed(() => down(name));
  return { up: started.seconds, down: stopped.seconds };
}

/** Best of RUNS rounds of up and down for one OVN and zone layout. */
async function bestRounds(name: string, ovn: OvnFlavor, zones: ZoneLayout): Promise<{ up: number; down: number }> {
  let best = { up: Infinity, down: Infinity };
  try {
    // warm-up: builds the trixie root once, fills caches
    await up({ name, nodes: 3, ovn, zones }).then(() => down(name));
    for (let i = 0; i < RUNS; i++) {
      const round = await labRound(name, ovn, zones);
      best = { up: Math.min(best.up, round.up), down: Math.min(best.down, round.down) };
      note(`${ovn} ${zones} round ${i + 1}: up ${round.up.toFixed(3)} s, down ${round.down.toFixed(3)} s`);
    }
  } finally {
    await down(name);
  }
  return best;
}

export const labBenchmark: Benchmark = {
  name: 'lab',
  description:
    'ovnk lab up/down with 3 nodes (central on bookworm and trixie, per-node on trixie), against starting one bare ovsdb-server',
  async run() {
    const name = `bench${process.pid}`;
    let baseline = Infinity;
    for (let i = 0; i < RUNS; i++) baseline = Math.min(baseline, await bareOvsdbServer());
    const bookworm = await bestRounds(name, 'bookworm', 'central');
    const trixie = await bestRounds(name, 'trixie', 'central');
    const perNode = await bestRounds(name, 'trixie', 'per-node');
    figure('lab.ovsdb-server.baseline', baseline, 's');
    figure('lab.up3', bookworm.up, 's');
    figure('lab.up3.ratio', bookworm.up / baseline, 'x baseline');
    figure('lab.down3', bookworm.down, 's');
    figure('lab.up3.trixie', trixie.up, 's');
    figure('lab.up3.trixie.ratio', trixie.up / baseline, 'x baseline');
    figure('lab.up3.per-node', perNode.up, 's');
    figure('lab.up3.per-node.ratio', perNode.up / baseline, 'x baseline');
  },
};
