/**
 * `npm run bench -- audit`: `ovnk audit` of one zone whose Northbound holds rows as upstream writes
 * them (a plan's rows with every ovnk.io key taken out), alone and then beside ten times more rows
 * of networks the file does not list. The audit selects only its networks' rows, so its time and
 * memory should not grow with the others. Baseline in the same run: `ovsdb-client dump` of the same
 * database (every row of every table), which is what reading "the whole database" costs.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { auditCluster, buildTopology, nbConnection, closeConnections } from '../provider/runtime/cli';
import { startOvsdbServer, type OvsdbServer } from '../test/support/ovsdbServer';
import { stripOurMarks } from '../test/support/upstreamLike';
import { bestOf, figure, note, type Benchmark } from './harness';

const run = promisify(execFile);
const cli = join(__dirname, '..', 'cli', 'main.js');
const RUNS = 5;
const OTHER_NETWORKS = 24;

const nodes = [1, 2].map((i) => ({
  name: `n${i}`,
  chassisId: `ch-${i}`,
  gatewayBridge: 'breth0',
  gatewayMac: `0a:00:00:00:00:0${i}`,
  nodeIPs: [`172.18.0.${i + 1}/16`],
  gatewayNextHops: ['172.18.0.1'],
}));

/** An owner's file: its networks (`[name, topology, cidr]`), one namespace and one pod per node each. */
function world(owner: string, networks: [string, 'Layer3' | 'Layer2', string][]): string {
  const inventory = {
    apiVersion: 'ovnk/v1alpha1',
    kind: 'Inventory',
    metadata: { name: owner },
    spec: {
      zones: 'per-node',
      masqueradeSubnets: ['169.254.0.0/17'],
      nodes,
      namespaces: networks.map(([name]) => ({ name, labels: { network: name } })),
      pods: networks.flatMap(([name]) => nodes.map((n) => ({ name: `p-${n.name}`, namespace: name, node: n.name }))),
    },
  };
  const cudns = networks.map(([name, topology, cidr]) => ({
    apiVersion: 'k8s.ovn.org/v1',
    kind: 'ClusterUserDefinedNetwork',
    metadata: { name },
    spec: {
      namespaceSelector: { matchLabels: { network: name } },
      network:
        topology === 'Layer3'
          ? { topology, layer3: { role: 'Primary', subnets: [{ cidr, hostSubnet: 24 }] } }
          : { topology, layer2: { role: 'Primary', subnets: [cidr] } },
    },
  }));
  return [inventory, ...cudns].map((d) => JSON.stringify(d)).join('\n---\n');
}

async function rowCount(server: OvsdbServer): Promise<{ rows: number; bytes: number; seconds: number; rssMb: number }> {
  const { stdout, stderr } = await run(
    '/usr/bin/time',
    ['-f', '%e %M', 'ovsdb-client', '-f', 'json', 'dump', server.unix, 'OVN_Northbound'],
    { maxBuffer: 256 << 20 },
  );
  // one JSON document per table, a line each
  const tables = stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { data: unknown[] });
  const [seconds, kb] = stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return {
    rows: tables.reduce((n, t) => n + t.data.length, 0),
    bytes: stdout.length,
    seconds: seconds!,
    rssMb: kb! / 1024,
  };
}

/** One audit in this process (connection open, schema fetched: what a long-lived caller pays). */
async function auditOnce(text: string, endpoint: string) {
  const built = buildTopology(text);
  if (!built.ok) throw new Error(built.problems.map((p) => p.message).join('; '));
  const db = await nbConnection(endpoint, 'bench');
  const result = await auditCluster(built.cluster, [{ name: 'n1', db }], { zone: 'n1' });
  const zone = result.zones[0]!;
  if (!zone.ok) throw zone.cause;
  const c = zone.value.comparison;
  if (c.missing.length + c.differing.length + c.unexpected.length > 0) throw new Error('the audit found differences');
  return zone.value;
}

/** The peak memory of the CLI running the same audit, in MiB. */
async function auditRss(file: string, endpoint: string): Promise<number> {
  const { stderr } = await run(
    '/usr/bin/time',
    ['-f', '%M', process.execPath, cli, 'audit', '-f', file, '--nb', `n1=${endpoint}`, '--zone', 'n1', '-o', 'json'],
    {
      maxBuffer: 64 << 20,
    },
  );
  return Number(stderr.trim().split('\n').pop()) / 1024;
}

async function apply(file: string, endpoint: string): Promise<void> {
  await run(process.execPath, [cli, 'apply', '-f', file, '--nb', `n1=${endpoint}`, '--zone', 'n1'], {
    maxBuffer: 64 << 20,
  });
}

async function measure(server: OvsdbServer, text: string, file: string) {
  await auditOnce(text, server.unix); // warm: code compiled, connection pooled
  const seconds = await bestOf(RUNS, () => auditOnce(text, server.unix));
  const audit = await auditOnce(text, server.unix);
  const rssMb = await auditRss(file, server.unix);
  const dump = await rowCount(server);
  return { seconds, audit, rssMb, dump };
}

async function runBenchmark(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ovnk-bench-audit-'));
  const server = await startOvsdbServer();
  try {
    const text = world('audited', [
      ['blue', 'Layer3', '10.10.0.0/16'],
      ['green', 'Layer2', '10.30.0.0/16'],
    ]);
    const file = join(dir, 'audited.yaml');
    writeFileSync(file, text);
    await apply(file, server.unix);
    await stripOurMarks(server.unix);
    const alone = await measure(server, text, file);
    const others = Array.from({ length: OTHER_NETWORKS }, (_, i): [string, 'Layer3', string] => [
      `other${i}`,
      'Layer3',
      `10.${100 + i}.0.0/16`,
    ]);
    const otherFile = join(dir, 'others.yaml');
    writeFileSync(otherFile, world('others', others));
    await apply(otherFile, server.unix);
    await stripOurMarks(server.unix);
    const crowded = await measure(server, text, file);
    const unrelated = crowded.dump.rows - alone.dump.rows;
    note(
      `alone: ${alone.dump.rows} rows in the database, audit read ${alone.audit.read} with ${alone.audit.selects} selects in ${alone.seconds.toFixed(3)} s, CLI peak ${alone.rssMb.toFixed(0)} MiB`,
    );
    note(
      `crowded: ${crowded.dump.rows} rows (${unrelated} of ${OTHER_NETWORKS} other networks, ${(unrelated / alone.audit.read).toFixed(1)}x the audited), audit read ${crowded.audit.read} with ${crowded.audit.selects} selects in ${crowded.seconds.toFixed(3)} s, CLI peak ${crowded.rssMb.toFixed(0)} MiB`,
    );
    note(
      `ovsdb-client dump of the crowded database: ${crowded.dump.seconds.toFixed(3)} s, ${(crowded.dump.bytes / 1024).toFixed(0)} KiB, peak ${crowded.dump.rssMb.toFixed(1)} MiB`,
    );
    if (unrelated < 10 * alone.audit.read)
      throw new Error(`only ${unrelated} unrelated rows for ${alone.audit.read} audited`);
    figure('audit.unrelated_rows.per_audited', unrelated / alone.audit.read, 'x');
    figure('audit.crowded.rows_read.vs_alone', crowded.audit.read / alone.audit.read, 'x');
    figure('audit.crowded.seconds', crowded.seconds, 's');
    figure('audit.crowded.vs_alone', crowded.seconds / alone.seconds, 'x');
    figure('audit.crowded.vs_ovsdb_client_dump', crowded.seconds / crowded.dump.seconds, 'x');
    figure('audit.crowded.cli_peak_rss', crowded.rssMb, 'MiB');
    figure('audit.crowded.cli_peak_rss.vs_alone', crowded.rssMb / alone.rssMb, 'x');
    figure('audit.ovsdb_client_dump.seconds', crowded.dump.seconds, 's');
    figure('audit.ovsdb_client_dump.peak_rss', crowded.dump.rssMb, 'MiB');
  } finally {
    await closeConnections();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const auditBenchmark: Benchmark = {
  name: 'audit',
  description: `ovnk audit of one zone, alone and beside ${OTHER_NETWORKS} unrelated networks (>10x its rows), vs ovsdb-client dump`,
  run: runBenchmark,
};
