/**
 * `npm run bench -- reads`: what a no-change re-apply, a diff and a Pulumi Read of one per-node
 * zone cost when its Northbound also holds an upstream-like load of rows that are not ours
 * (foreignLoad.ts), about 10x and 100x our rows. Each size runs on its own server, beside the
 * same operations on a server holding only our rows (same run). Baseline: `ovsdb-client dump` of
 * the loaded database (what reading the whole database costs). Targets (issue 30.1): re-apply
 * and diff <= 0.1x the dump and <= 1.5x the same operation without the load.
 * CPU figures are the best of CPU_RUNS calls (client and server together).
 * Times are of the Northbound part (observe, reconcile, the transaction when one is due) for a
 * zone planned once, as the Pulumi providers run it (their plan comes from check); planning the
 * topology costs the same whatever the database holds, and is noted apart.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { observe, planApply } from '../provider/nb/apply';
import { nbSchema } from '../provider/nb/generated/nb';
import type { OvsdbDatabase } from '../provider/ovsdb/client';
import {
  adaptToServer,
  applyZone,
  closeConnections,
  diffZone,
  nbConnection,
  planTopology,
  type TopologyPlan,
} from '../provider/runtime/cli';
import { startOvsdbServer, type OvsdbServer } from '../test/support/ovsdbServer';
import { cpuSecondsOf, preciseCpuSecondsOf } from '../test/support/processCpu';
import { loadSize, writeLoad } from './foreignLoad';
import { bestOf, figure, note, timed, type Benchmark } from './harness';
import { perNodeTopologyText } from './perNodeTopology';

const OWNER = 'bench-reads';
const RUNS = 5;
const CPU_RUNS = 30;
const NB = 'OVN_Northbound';
const TEXT = perNodeTopologyText({ nodes: 3, namespaces: 32 }, 'per-node');

interface Costs {
  /** CPU seconds of one operation, ours and the server's together. */
  reapply: number;
  diff: number;
  read: number;
  dump: number;
  /** Wall seconds (best of RUNS), noisy on a shared machine. */
  wall: { reapply: number; diff: number; read: number; dump: number };
  /** Rows the server sent back to one re-apply's reads. */
  rowsRead: number;
}

const ownCpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/**
 * CPU seconds of one call of `body`, this process's and the server's main thread's together: the
 * best of `runs` calls, the one least disturbed by the other work of a shared machine.
 */
async function cpuPerCall(server: OvsdbServer, runs: number, body: () => Promise<unknown>): Promise<number> {
  let best = { client: Infinity, server: Infinity };
  for (let i = 0; i < runs; i++) {
    const [mine, theirs] = [ownCpu(), preciseCpuSecondsOf(server.pid)];
    await body();
    const call = { client: ownCpu() - mine, server: preciseCpuSecondsOf(server.pid) - theirs };
    if (call.client + call.server < best.client + best.server) best = call;
  }
  note(`  client ${best.client.toFixed(4)} s, server ${best.server.toFixed(4)} s (best of ${runs})`);
  return best.client + best.server;
}

/** `ovsdb-client dump` of the whole Northbound: its CPU and the server's, per dump. */
function dumpCpu(server: OvsdbServer, runs: number): number {
  const theirs = cpuSecondsOf(server.pid);
  let client = 0;
  for (let i = 0; i < runs; i++) {
    const { stderr } = spawnSync('/usr/bin/time', ['-f', '%U %S', 'ovsdb-client', 'dump', server.unix, NB], {
      maxBuffer: 1 << 30,
      encoding: 'utf8',
    });
    const [user, system] = stderr.trim().split('\n').pop()!.split(' ').map(Number);
    client += user! + system!;
  }
  return (client + cpuSecondsOf(server.pid) - theirs) / runs;
}

function plan(): TopologyPlan {
  const result = planTopology(TEXT, undefined);
  if (!result.ok || result.plan.problems.length > 0) throw new Error('the benchmark topology is refused');
  return result.plan;
}

/** A database counting the rows its selects return. */
function counting(db: OvsdbDatabase): OvsdbDatabase & { rows: number } {
  const counted = {
    rows: 0,
    endpoint: db.endpoint,
    listDbs: () => db.listDbs(),
    getSchema: (name: string) => db.getSchema(name),
    transact: async (...args: Parameters<OvsdbDatabase['transact']>) => {
      const results = await db.transact(...args);
      for (const r of results) counted.rows += r.rows?.length ?? 0;
      return results;
    },
    close: () => undefined,
  };
  return counted;
}

async function costs(server: OvsdbServer, planned: TopologyPlan): Promise<Costs> {
  const db = await nbConnection(server.unix);
  const zone = planned.zones[0]!;
  const reapply = async (on: OvsdbDatabase) => {
    const result = await applyZone(on, zone, OWNER, planned.state);
    if (result.sent) throw new Error(`a no-change re-apply sent ${result.operations} operations: ${result.summary[0]}`);
  };
  const diff = async () => {
    const drift = await diffZone(db, zone, OWNER);
    if (drift.lines.length > 0) throw new Error(`a no-change diff found drift: ${drift.lines[0]}`);
  };
  // the Pulumi provider's read (runtime/pulumi/nbRows.ts driftOf): observe and reconcile
  const schema = await db.getSchema(NB);
  const request = { owner: OWNER, schema: nbSchema, desired: adaptToServer(zone.rows, schema).rows };
  const read = async () => {
    const { plan } = planApply(request, await observe(db, request));
    if (plan.changes.length > 0) throw new Error(`a no-change read found drift: ${plan.summary[0]}`);
  };
  await reapply(db); // warm: code compiled, schema fetched
  const counted = counting(db);
  await reapply(counted);
  const dump = () => execFileSync('ovsdb-client', ['dump', server.unix, NB], { maxBuffer: 1 << 30 });
  return {
    reapply: await cpuPerCall(server, CPU_RUNS, () => reapply(db)),
    diff: await cpuPerCall(server, CPU_RUNS, diff),
    read: await cpuPerCall(server, CPU_RUNS, read),
    dump: dumpCpu(server, 3),
    wall: {
      reapply: await bestOf(RUNS, () => reapply(db)),
      diff: await bestOf(RUNS, diff),
      read: await bestOf(RUNS, read),
      dump: await bestOf(3, dump),
    },
    rowsRead: counted.rows,
  };
}

/** A server holding our zone's rows and, when `scale` > 0, the load at that scale. */
async function measure(planned: TopologyPlan, scale: number): Promise<Costs & { foreign: number }> {
  const server = await startOvsdbServer();
  try {
    // the load first: its long transaction would starve the pooled connection's keepalive
    const foreign = scale > 0 ? await writeLoad(server.unix, loadSize(scale)) : 0;
    const db = await nbConnection(server.unix);
    const first = await applyZone(db, planned.zones[0]!, OWNER, planned.state);
    if (!first.sent) throw new Error('the first apply sent nothing');
    return { ...(await costs(server, planned)), foreign };
  } finally {
    await closeConnections();
    await server.stop();
  }
}

const OPERATIONS = ['reapply', 'diff', 'read'] as const;

const describe = (label: string, c: Costs) =>
  `${label}: CPU per call (ours + server) re-apply ${c.reapply.toFixed(4)} s, diff ${c.diff.toFixed(4)} s, read ${c.read.toFixed(4)} s, dump ${c.dump.toFixed(4)} s; wall re-apply ${c.wall.reapply.toFixed(4)} s, diff ${c.wall.diff.toFixed(4)} s, read ${c.wall.read.toFixed(4)} s, dump ${c.wall.dump.toFixed(4)} s; a re-apply read ${c.rowsRead} rows`;

async function run(): Promise<void> {
  const planning = await timed(plan);
  const planned = planning.value;
  const ours = planned.zones[0]!.rows.length;
  note(
    `planning the ${planned.zones.length}-zone topology: ${planning.seconds.toFixed(3)} s (the same whatever the database holds)`,
  );
  const alone = await measure(planned, 0);
  note(describe(`alone (${ours} rows of ours)`, alone));
  for (const [label, scale] of [
    ['10x', 0.1],
    ['100x', 1],
  ] as const) {
    const loaded = await measure(planned, scale);
    note(describe(`${label} (${loaded.foreign} foreign rows)`, loaded));
    figure(`reads.${label}.foreign_per_ours`, loaded.foreign / ours, 'x');
    for (const op of OPERATIONS) {
      figure(`reads.${label}.${op}.cpu.vs_dump`, loaded[op] / loaded.dump, 'x');
      figure(`reads.${label}.${op}.cpu.vs_alone`, loaded[op] / alone[op], 'x');
      figure(`reads.${label}.${op}.wall.vs_dump`, loaded.wall[op] / loaded.wall.dump, 'x');
    }
    figure(`reads.${label}.rows_read.vs_alone`, loaded.rowsRead / alone.rowsRead, 'x');
    figure(`reads.${label}.dump.cpu`, loaded.dump, 's');
  }
  for (const op of OPERATIONS) figure(`reads.alone.${op}.cpu`, alone[op], 's');
  figure('reads.alone.dump.cpu', alone.dump, 's');
}

export const readsBenchmark: Benchmark = {
  name: 'reads',
  description:
    'no-change re-apply, diff and Pulumi read of one per-node zone beside ~10x and ~100x foreign rows, vs ovsdb-client dump',
  run,
};
