import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runApply } from '../../../cli/commands/apply';
import { runAudit } from '../../../cli/commands/audit';
import { runDestroy } from '../../../cli/commands/destroy';
import { runDiff } from '../../../cli/commands/diff';
import { clusterPlanFor, fileTarget } from '../../../cli/commands/fileTarget';
import { releaseZones, zoneRunsOf, zoneTargets } from '../../../cli/commands/zoneRuns';
import { closeCluster, closeConnections, diffCluster } from '../../../provider/runtime/cli';
import { logMark, logRequests, requestsSince } from '../../support/serverRequests';
import { chassisNode, layer3AndLayer2, useZoneNorthbounds } from '../../support/worlds';

// A CLI run holds a zone's Northbound only while it works on that zone (connections.ts
// leaseConnection, cluster/zones.ts onZones and readZones): at most --parallel at once, none once
// the run is over, though the process has not closed its pool yet. Every zone's state is read
// before the plan; the first --parallel zones keep that connection for their run, the others
// connect again; a state read fetches no schema, so each zone's schema is fetched once.
// Counted at the real servers' end: held sessions are the established TCP connections on each
// ovsdb-server's port as the kernel lists them (/proc/net/tcp; one the client closed is
// CLOSE_WAIT there at once, however late the server gets to it), sampled while the command runs
// in this process (the pool is the process's, so runFileCommand's closing is not called here);
// connections and get_schemas made are what each server logs it received (serverRequests.ts).
const zones = [1, 2, 3, 4, 5, 6];
const PARALLEL = 2;
const { servers } = useZoneNorthbounds(zones.map((i) => `n${i}`));

let dir: string;
let file: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ovnk-release-'));
  file = join(dir, 'per-node.yaml');
  writeFileSync(
    file,
    layer3AndLayer2(
      't-cli-release',
      ['l3', 'l2'],
      zones.map((i) => chassisNode(i)),
    ),
  );
  for (const server of servers) await logRequests(server);
});
afterAll(async () => {
  await closeConnections();
  rmSync(dir, { recursive: true, force: true });
});

const ESTABLISHED = '01';

/** Every server's established connections: /proc/net/tcp lines whose local port is its port. */
function sessions(): number[] {
  const lines = readFileSync('/proc/net/tcp', 'utf8').trim().split('\n').slice(1);
  const established = lines
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === ESTABLISHED)
    .map((fields) => parseInt(fields[1]!.split(':')[1]!, 16));
  return servers.map((s) => established.filter((port) => port === s.tcpPort).length);
}
const total = (counts: number[]) => counts.reduce((a, b) => a + b, 0);

/** A command's connections and get_schemas per server (zone order), the most sessions held at once; none left. */
async function counted(command: () => Promise<unknown>) {
  const marks = servers.map(logMark);
  let most = 0;
  const sampler = setInterval(() => (most = Math.max(most, total(sessions()))), 5);
  try {
    await command();
  } finally {
    clearInterval(sampler);
  }
  expect(sessions()).toEqual(zones.map(() => 0));
  const seen = servers.map((s, i) => requestsSince(s, marks[i]!));
  return { connections: seen.map((s) => s.connections), getSchemas: seen.map((s) => s.getSchemas), most };
}

const options = (parallel: number) => ({
  file: [file],
  nb: zones.map((i) => `n${i}=${servers[i - 1]!.tcp}`),
  parallel: String(parallel),
});
const once = zones.map(() => 1);
/** With --parallel 2: the first two zones keep their state read's connection for their run. */
const readThenRun = zones.map((_, i) => (i < PARALLEL ? 1 : 2));

type Command = (parallel: number) => Promise<boolean[]>;
/** Each command's check of its zones' outcomes: true for a zone that did what the step should. */
const applied =
  (sent: boolean): Command =>
  async (parallel) =>
    (await runApply(options(parallel))).zones.map((z) => z.ok && z.value.sent === sent);
const diffed: Command = async (parallel) =>
  (await runDiff(options(parallel))).zones.map((z) => z.ok && z.value.lines.length === 0);
const audited: Command = async (parallel) => (await runAudit(options(parallel))).runs.map((r) => r.ok);
const destroyed: Command = async (parallel) =>
  (await runDestroy(options(parallel))).zones.map((z) => z.ok && z.value.sent);

/** Runs each command with `parallel`: every zone did its step, with `connections` and one get_schema per zone. */
async function expectRuns(commands: Command[], parallel: number, connections: number[]): Promise<void> {
  for (const command of commands) {
    let outcomes: boolean[] = [];
    const run = await counted(async () => (outcomes = await command(parallel)));
    expect(outcomes).toEqual(zones.map(() => true));
    expect(run.connections).toEqual(connections);
    expect(run.getSchemas).toEqual(once);
    expect(run.most).toBeGreaterThan(0);
    expect(run.most).toBeLessThanOrEqual(parallel);
  }
}

describe('a CLI run over per-node zones holds each zone only while it works on it', () => {
  it('apply and a re-apply hold at most --parallel sessions, none afterwards, and fetch each schema once', async () => {
    await expectRuns([applied(true), applied(false)], PARALLEL, readThenRun);
  });

  it('diff and audit hold at most --parallel sessions, none afterwards, and fetch each schema once', async () => {
    await expectRuns([diffed, audited], PARALLEL, readThenRun);
  });

  it('with --parallel at least the zones, destroy, apply, re-apply, diff and audit connect to each zone once', async () => {
    await expectRuns([destroyed, applied(true), applied(false), diffed, audited], zones.length, once);
  });

  it('a zone whose kept connection its server dropped while the plan ran is connected again for its run', async () => {
    const marks = servers.map(logMark);
    const target = await fileTarget(options(zones.length), true);
    const plan = await clusterPlanFor(target, undefined, false);
    // ovsdb-server drops every client (as after unanswered echoes) while this process runs
    // synchronously, as a long plan does: the zone run starts before a read could see the close
    const ctl = join(servers[0]!.dir, 'db.ctl');
    execFileSync('ovs-appctl', ['-t', ctl, 'ovsdb-server/reconnect']);
    execFileSync('sleep', ['0.2']);
    const names = plan.topology.zones.map((z) => z.name);
    try {
      const result = await diffCluster(
        plan,
        zoneTargets(target, 'diff', names, () => ''),
      );
      expect(zoneRunsOf(target, names, result.zones).map((r) => r.ok)).toEqual(zones.map(() => true));
    } finally {
      await closeCluster(plan);
      await releaseZones(target);
    }
    const seen = servers.map((s, i) => requestsSince(s, marks[i]!).connections);
    expect(seen).toEqual(zones.map((_, i) => (i === 0 ? 2 : 1)));
  });
});
