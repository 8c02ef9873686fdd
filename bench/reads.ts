/**
 * `npm run bench -- reads`: what a no-change re-apply, a diff and a Pulumi Read of one per-node
 * zone cost when its Northbound also holds an upstream-like load of rows that are not ours
 * (foreignLoad.ts), about 10x and 100x our rows, beside the same operations on a server holding
 * only our rows. Baseline: `ovsdb-client dump` of the loaded database (what reading the whole
 * database costs). Targets (issue 30.1): re-apply and diff <= 0.1x the dump and <= 1.5x the same
 * operation without the load.
 * Every server is up at once and the calls take turns, server after server, so the other work of
 * a shared machine falls on all of them alike; CPU figures are the best of CPU_RUNS calls (client
 * and server together). The load goes in one transaction, as a server restarted from its
 * database file holds it (its rows among the holes one large parse leaves). More servers tell
 * apart what the load's rows cost and what the server's heap costs: at both sizes one holding
 * the load written one object at a time, as upstream's controllers write (`_piecewise`: the same
 * rows, requests and replies), one with the 10x load written so and then restarted from its
 * compacted file (`_restarted`), and one that held the 100x load and dropped it (our rows only, its
 * heap went through the load: the second baseline, beside the fresh server).
 * Times are of the Northbound part (observe, reconcile, the transaction when one is due) for a
 * zone planned once, as the Pulumi providers run it (their plan comes from check); planning the
 * topology costs the same whatever the database holds, and is noted apart.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { observe, planApply } from '../provider/nb/apply';
import { nbSchema } from '../provider/nb/generated/nb';
import { OvsdbClient, type OvsdbDatabase } from '../provider/ovsdb/client';
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
import { dropLoad, loadSize, writeLoad, writeLoadPiecewise } from './foreignLoad';
import { bestOf, figure, note, timed, type Benchmark } from './harness';
import { perNodeTopologyText } from './perNodeTopology';

const OWNER = 'bench-reads';
const RUNS = 5;
const CPU_RUNS = 30;
const NB = 'OVN_Northbound';
const TEXT = perNodeTopologyText({ nodes: 3, namespaces: 32 }, 'per-node');
const OPERATIONS = ['reapply', 'diff', 'read'] as const;
type Op = (typeof OPERATIONS)[number];

/** What one call sent and got back. */
interface Sent {
  transactions: number;
  operations: number;
  rows: number;
}

/** One server and the operations on it. */
interface Subject {
  label: string;
  server: OvsdbServer;
  /** Rows of the load it holds (0 when none or dropped). */
  foreign: number;
  calls: Record<Op, (db: OvsdbDatabase) => Promise<unknown>>;
  db: OvsdbDatabase;
  /** CPU seconds of one call, best of CPU_RUNS: ours and the server's main thread. */
  cpu: Record<Op, { client: number; server: number }>;
  sent: Record<Op, Sent>;
}

const ownCpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

const total = (c: { client: number; server: number }) => c.client + c.server;

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

/** A database counting the transactions, operations and rows of its selects. */
function counting(db: OvsdbDatabase): OvsdbDatabase & { sent: Sent } {
  const sent: Sent = { transactions: 0, operations: 0, rows: 0 };
  return {
    sent,
    endpoint: db.endpoint,
    listDbs: () => db.listDbs(),
    getSchema: (name: string) => db.getSchema(name),
    transact: async (...args: Parameters<OvsdbDatabase['transact']>) => {
      const results = await db.transact(...args);
      sent.transactions++;
      sent.operations += args[1].length;
      for (const r of results) sent.rows += r.rows?.length ?? 0;
      return results;
    },
    close: () => undefined,
  };
}

async function callsOn(db: OvsdbDatabase, planned: TopologyPlan): Promise<Subject['calls']> {
  const zone = planned.zones[0]!;
  // the Pulumi provider's read (runtime/pulumi/nbRows.ts driftOf): observe and reconcile
  const schema = await db.getSchema(NB);
  const request = { owner: OWNER, schema: nbSchema, desired: adaptToServer(zone.rows, schema).rows };
  return {
    reapply: async (on) => {
      const result = await applyZone(on, zone, OWNER, planned.state);
      if (result.sent)
        throw new Error(`a no-change re-apply sent ${result.operations} operations: ${result.summary[0]}`);
    },
    diff: async (on) => {
      const drift = await diffZone(on, zone, OWNER);
      if (drift.lines.length > 0) throw new Error(`a no-change diff found drift: ${drift.lines[0]}`);
    },
    read: async (on) => {
      const { plan } = planApply(request, await observe(on, request));
      if (plan.changes.length > 0) throw new Error(`a no-change read found drift: ${plan.summary[0]}`);
    },
  };
}

/**
 * How a server got its load: in one transaction, one object at a time as upstream's controllers
 * write it (foreignLoad.ts loadPieces), that and then a restart from its compacted database file
 * (which the server reads in one piece), or in one transaction and then deleted (`dropped`).
 */
type Loaded = 'one' | 'piecewise' | 'restarted' | 'dropped';

async function firstApply(db: OvsdbDatabase, planned: TopologyPlan): Promise<void> {
  const first = await applyZone(db, planned.zones[0]!, OWNER, planned.state);
  if (!first.sent) throw new Error('the first apply sent nothing');
}

/** A new server on `server`'s database file, compacted (`ovsdb-tool compact`); `server` stopped. */
async function restarted(server: OvsdbServer): Promise<OvsdbServer> {
  const file = `${server.dir}/restart.db`;
  copyFileSync(`${server.dir}/db.db`, file);
  execFileSync('ovsdb-tool', ['compact', file]);
  const next = await startOvsdbServer({ from: file });
  await server.stop();
  return next;
}

/** A server holding our zone's rows and, when `scale` > 0, the load at that scale, written as `loaded` says. */
async function subject(label: string, planned: TopologyPlan, scale: number, loaded: Loaded = 'one'): Promise<Subject> {
  let server = await startOvsdbServer();
  const drop = loaded === 'dropped';
  const write = loaded === 'piecewise' || loaded === 'restarted' ? writeLoadPiecewise : writeLoad;
  try {
    // the load first: its long transaction would starve the pooled connection's keepalive
    const foreign = scale > 0 ? await write(server.unix, loadSize(scale)) : 0;
    if (loaded === 'restarted') {
      const client = await OvsdbClient.connect(server.unix);
      await firstApply(client, planned).finally(() => client.close());
      server = await restarted(server);
    }
    const db = await nbConnection(server.unix);
    if (loaded !== 'restarted') await firstApply(db, planned);
    if (drop) await dropLoad(server.unix, loadSize(scale));
    const calls = await callsOn(db, planned);
    const none = { client: Infinity, server: Infinity };
    const cpu = { reapply: none, diff: none, read: none };
    return { label, server, foreign: drop ? 0 : foreign, calls, db, sent: await sentBy(db, calls), cpu };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** What each operation sends, counted on its second call (the first compiles code and fetches the schema). */
async function sentBy(db: OvsdbDatabase, calls: Subject['calls']): Promise<Subject['sent']> {
  const sent = {} as Subject['sent'];
  for (const op of OPERATIONS) {
    await calls[op](db);
    const counted = counting(db);
    await calls[op](counted);
    sent[op] = counted.sent;
  }
  return sent;
}

/** One call of each operation on each server, CPU_RUNS times, each keeping its best. */
async function measureCpu(subjects: Subject[]): Promise<void> {
  for (let i = 0; i < CPU_RUNS; i++)
    for (const s of subjects)
      for (const op of OPERATIONS) {
        const [mine, theirs] = [ownCpu(), preciseCpuSecondsOf(s.server.pid)];
        await s.calls[op](s.db);
        const call = { client: ownCpu() - mine, server: preciseCpuSecondsOf(s.server.pid) - theirs };
        if (total(call) < total(s.cpu[op])) s.cpu[op] = call;
      }
}

const describe = (s: Subject) =>
  `${s.label}: CPU per call, best of ${CPU_RUNS} (client + server): ` +
  OPERATIONS.map(
    (op) =>
      `${op} ${total(s.cpu[op]).toFixed(4)} s (${s.cpu[op].client.toFixed(4)} + ${s.cpu[op].server.toFixed(4)}; ` +
      `${s.sent[op].transactions} transactions, ${s.sent[op].operations} operations, ${s.sent[op].rows} rows)`,
  ).join(', ');

async function run(): Promise<void> {
  const planning = await timed(plan);
  const planned = planning.value;
  const ours = planned.zones[0]!.rows.length;
  note(
    `planning the ${planned.zones.length}-zone topology: ${planning.seconds.toFixed(3)} s (the same whatever the database holds)`,
  );
  const subjects: Subject[] = [];
  try {
    subjects.push(await subject('alone', planned, 0));
    subjects.push(await subject('10x', planned, 0.1));
    subjects.push(await subject('10x_piecewise', planned, 0.1, 'piecewise'));
    subjects.push(await subject('10x_restarted', planned, 0.1, 'restarted'));
    subjects.push(await subject('100x', planned, 1));
    subjects.push(await subject('100x_piecewise', planned, 1, 'piecewise'));
    subjects.push(await subject('100x_dropped', planned, 1, 'dropped'));
    await measureCpu(subjects);
    const [alone, ...others] = subjects as [Subject, ...Subject[]];
    // the second baseline: our rows only, on a server whose heap went through the 100x load
    const dropped = subjects.find((s) => s.label === '100x_dropped')!;
    note(describe(alone));
    for (const op of OPERATIONS) figure(`reads.alone.${op}.cpu`, total(alone.cpu[op]), 's');
    figure('reads.alone.dump.cpu', dumpCpu(alone.server, 3), 's');
    for (const s of others) {
      note(`${describe(s)}; ${s.foreign} foreign rows`);
      const dump = s.foreign > 0 ? dumpCpu(s.server, 3) : undefined;
      if (s.foreign > 0) figure(`reads.${s.label}.foreign_per_ours`, s.foreign / ours, 'x');
      for (const op of OPERATIONS) {
        figure(`reads.${s.label}.${op}.cpu.vs_alone`, total(s.cpu[op]) / total(alone.cpu[op]), 'x');
        figure(`reads.${s.label}.${op}.server_cpu.vs_alone`, s.cpu[op].server / alone.cpu[op].server, 'x');
        if (dump !== undefined) figure(`reads.${s.label}.${op}.cpu.vs_dump`, total(s.cpu[op]) / dump, 'x');
        if (s.foreign > 0)
          figure(`reads.${s.label}.${op}.cpu.vs_dropped`, total(s.cpu[op]) / total(dropped.cpu[op]), 'x');
      }
      figure(`reads.${s.label}.rows_read.vs_alone`, s.sent.reapply.rows / alone.sent.reapply.rows, 'x');
      if (dump === undefined) continue;
      figure(`reads.${s.label}.dump.cpu`, dump, 's');
      const dumpWall = await bestOf(3, () =>
        execFileSync('ovsdb-client', ['dump', s.server.unix, NB], { maxBuffer: 1 << 30 }),
      );
      for (const op of OPERATIONS)
        figure(`reads.${s.label}.${op}.wall.vs_dump`, (await bestOf(RUNS, () => s.calls[op](s.db))) / dumpWall, 'x');
    }
  } finally {
    await closeConnections();
    for (const s of subjects) await s.server.stop();
  }
}

export const readsBenchmark: Benchmark = {
  name: 'reads',
  description:
    'no-change re-apply, diff and Pulumi read of one per-node zone beside ~10x and ~100x foreign rows, vs ovsdb-client dump',
  run,
};
