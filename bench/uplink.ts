/**
 * Benchmark of the Uplink runtime on a 3-node lab with Uplink bridges: discovery of the fixture's
 * Uplinks on every node (fresh SSH connections, one command and one Open_vSwitch transaction per
 * node) and configuration (discovery plus the guarded bridge-mapping writes), with the SSH round
 * trips counted. Baseline in the same run: OpenSSH's `ssh node true` on every node at once, each
 * with a fresh connection, the lab's key and the pinned host key.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { down, inventoryOf, type LabStatus, readState, up } from '../lab';
import { exec } from '../lab/exec';
import { buildCluster, type Cluster } from '../provider/model/cluster';
import { loadDocuments } from '../provider/model/load';
import { fillInventory } from '../provider/runtime/inventoryMerge';
import { applyUplinks, destroyUplinks, discoverUplinks } from '../provider/runtime/uplink';
import { type Benchmark, figure, note, timed } from './harness';

const RUNS = 3;
const OWNER = 'bench-uplink';

function clusterOf(status: LabStatus): Cluster {
  const text = readFileSync(path.resolve(__dirname, '../../test/fixtures/uplink-lab.yaml'), 'utf8');
  const built = buildCluster(
    fillInventory(loadDocuments(text).documents, inventoryOf(status) as unknown as { spec: Record<string, unknown> }),
  );
  if (built.problems.length > 0) throw new Error(built.problems[0]!.message);
  return built.cluster;
}

/** `ssh node true` on every node at once, fresh connections, host keys pinned in a known_hosts file. */
async function sshTrue(name: string, dir: string): Promise<number> {
  const state = readState(name)!;
  const knownHosts = path.join(dir, 'known_hosts');
  writeFileSync(
    knownHosts,
    state.layout.nodes
      .map(
        (n) =>
          `${n.mgmtIp} ${readFileSync(`${n.hostKeyPath}.pub`, 'utf8').trim().split(/\s+/).slice(0, 2).join(' ')}\n`,
      )
      .join(''),
  );
  const ssh = (host: string) =>
    exec([
      'ssh',
      '-i',
      state.layout.clientKeyPath,
      '-o',
      'BatchMode=yes',
      '-o',
      'StrictHostKeyChecking=yes',
      '-o',
      `UserKnownHostsFile=${knownHosts}`,
      '-o',
      'GlobalKnownHostsFile=/dev/null',
      `root@${host}`,
      'true',
    ]);
  return (await timed(() => Promise.all(state.layout.nodes.map((n) => ssh(n.mgmtIp))))).seconds;
}

async function best(body: () => Promise<unknown>, before?: () => Promise<unknown>): Promise<number> {
  let seconds = Infinity;
  for (let i = 0; i < RUNS; i++) {
    await before?.();
    seconds = Math.min(seconds, (await timed(body)).seconds);
  }
  return seconds;
}

export const uplinkBenchmark: Benchmark = {
  name: 'uplink',
  description:
    'Uplink discovery and bridge-mapping configuration on 3 lab nodes over SSH, against `ssh node true` on each',
  async run() {
    const name = `bu${process.pid}`;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-bench-uplink-'));
    try {
      const { status } = await up({ name, nodes: 3, ovn: 'trixie', zones: 'central', uplinks: true });
      const cluster = clusterOf(status);
      const baseline = await best(() => sshTrue(name, dir));
      const discover = await best(() => discoverUplinks(cluster, OWNER));
      let roundTrips = 0;
      const configure = await best(
        async () => {
          roundTrips = (await applyUplinks(cluster, OWNER)).roundTrips;
        },
        () => destroyUplinks(cluster, OWNER),
      );
      note(
        `ssh true x3 (parallel, fresh connections) ${baseline.toFixed(3)} s; discover ${discover.toFixed(3)} s; configure ${configure.toFixed(3)} s; ${roundTrips} SSH round trips per configure`,
      );
      figure('uplink.discover3', discover, 's');
      figure('uplink.configure3', configure, 's');
      figure('uplink.roundtrips', roundTrips, 'count');
      figure('uplink.ssh_true3', baseline, 's');
      figure('uplink.vs_ssh_true', configure / baseline, 'x');
    } finally {
      await down(name);
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
