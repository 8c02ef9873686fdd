import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OVN, down, readState, up } from '../../lab';
import { nbMembers } from '../../lab/nbCluster';
import { isRunning, readPidFile } from '../../lab/processes';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { OvsdbClusterClient } from '../../provider/ovsdb/cluster';
import type { TableUpdates } from '../../provider/ovsdb/monitor';
import { renamedTopology } from '../pulumi/fixtures';
import { documentOf, ovnk, ovnkAsync } from '../support/cli';
import { killSwitch, type KillPoint, type KillSwitch, type KillTarget } from '../support/killSwitch';
import { dynamicUrn, startTestHost, stopTestHost, type TestHost } from '../support/pulumiHost';
import { blueLayer3, chassisNode } from '../support/worlds';

// Issue 15 points 11 and 12 on a lab of its own whose central Northbound is a 3-member RAFT
// cluster (create-cluster / join-cluster). The clients under test (an `ovnk` child, the Pulumi
// provider host) reach the members through a kill switch that SIGKILLs the leader at an exact
// step: before a transaction reaches it, or after it committed and before its answer arrives.
const name = `raft-${process.pid % 100000}`;
const NB = 'OVN_Northbound';
const OWNER = 't-raft';
const topology = blueLayer3(OWNER, [chassisNode(1), chassisNode(2)]);

let remotes: string;
let targets: KillTarget[];
let gate: KillSwitch;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function killByPid(pidFile: string): Promise<void> {
  const pid = readPidFile(pidFile)!;
  process.kill(pid, 'SIGKILL');
  while (isRunning(pid)) await sleep(10);
}

/** Until the member at `socket` is connected to a cluster that has a leader (it then counts for a majority). */
async function member(socket: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; ; await sleep(100)) {
    const client = await OvsdbClient.connect(`unix:${socket}`).catch(() => undefined);
    const [result] = (await client
      ?.transact('_Server', [{ op: 'select', table: 'Database', where: [['name', '==', NB]] }])
      .catch(() => undefined)) ?? [undefined];
    client?.close();
    const row = result?.rows?.[0];
    if (row?.connected === true && row?.leader !== undefined) return;
    if (Date.now() > deadline) throw new Error(`${socket} did not rejoin the cluster`);
  }
}

/** The routers this owner has, read from the leader (names; a duplicate would show twice). */
async function ownedRouters(): Promise<string[]> {
  const client = new OvsdbClusterClient(remotes, NB);
  try {
    const [result] = await client.transact(NB, [
      {
        op: 'select',
        table: 'Logical_Router',
        where: [['external_ids', 'includes', ['map', [['ovnk.io/owner', OWNER]]]]] as never,
        columns: ['name'],
      },
    ]);
    return result!.rows!.map((row) => String(row.name)).sort();
  } finally {
    client.close();
  }
}

/** Start the killed member again with `ovnk lab restart` and wait until it is back in the cluster. */
async function restartKilled(killed: string): Promise<void> {
  const restarted = ovnk(['lab', 'restart', '--name', name, '-o', 'json']);
  expect(restarted.code, restarted.stderr).toBe(0);
  expect(documentOf(restarted).restarted).toEqual([killed]);
  await member(targets.find((t) => t.name === killed)!.socket);
}

beforeAll(async () => {
  const ovn = (process.env.OVNK_LAB_OVN ?? DEFAULT_OVN) as typeof DEFAULT_OVN;
  const started = await up({ name, nodes: 2, ovn, zones: 'central', dataPlane: false, nbMembers: 3 });
  remotes = started.status.nb!;
  targets = nbMembers(readState(name)!.layout).map((m) => ({
    name: m.name,
    socket: m.socket,
    kill: () => killByPid(m.pidFile),
  }));
  gate = await killSwitch(targets);
}, 120_000);

afterAll(async () => {
  await gate?.close();
  await down(name);
});

describe('a lab whose Northbound is a 3-member RAFT cluster', () => {
  it('reports a killed member as down in lab status, and lab restart starts it again on its database', async () => {
    const follower = targets[2]!;
    await follower.kill();
    const status = documentOf(ovnk(['lab', 'status', '--name', name, '-o', 'json']));
    expect(status.healthy).toBe(false);
    expect(status.daemons.filter((d: { up: boolean }) => !d.up).map((d: { name: string }) => d.name)).toEqual([
      follower.name,
    ]);
    expect(ovnk(['lab', 'status', '--name', name]).stdout).toContain(`daemon ${follower.name}  DOWN`);
    await restartKilled(follower.name);
    const after = documentOf(ovnk(['lab', 'status', '--name', name, '-o', 'json']));
    expect(after.healthy).toBe(true);
    // the restarted member serves the rows it had (NB_Global from `init`) from its own file
    const direct = await OvsdbClient.connect(`unix:${follower.socket}`);
    const [global] = await direct.transact(NB, [{ op: 'select', table: 'NB_Global', where: [] }]);
    direct.close();
    expect(global!.rows).toHaveLength(1);
  });
});

/** A monitor of the owner's routers through the cluster client, kept as a consumer keeps it. */
async function watchRouters() {
  const watcher = new OvsdbClusterClient(remotes, NB, { retryDelayMs: 50 });
  const names = new Map<string, string>();
  const apply = (tables: TableUpdates) => {
    for (const row of tables.Logical_Router ?? [])
      if (row.kind === 'delete') names.delete(row.uuid);
      else if (row.new?.name !== undefined) names.set(row.uuid, String(row.new.name));
  };
  const monitor = await watcher.monitor(NB, { Logical_Router: { columns: ['name'] } }, (u) => apply(u.tables), {
    method: 'monitor_cond_since',
  });
  apply(monitor.initial);
  return { watcher, names: () => [...names.values()].sort() };
}

const isOurWrite = (request: string) => request.includes('"transact"') && request.includes(`ovnk.io/txn/${OWNER}`);

async function applyWithLeaderKilled(point: KillPoint) {
  try {
    await appliedOnce(point);
  } finally {
    expect(ovnk(['destroy', '-f', '-', '--nb', remotes, '-o', 'json'], { input: topology }).code).toBe(0);
  }
}

async function appliedOnce(point: KillPoint) {
  const { watcher, names } = await watchRouters();
  const fired = gate.arm(isOurWrite, point);
  const run = ovnkAsync(['apply', '-f', '-', '--nb', gate.remotes, '-o', 'json'], { input: topology });
  const killed = await fired;
  const applied = await run;
  expect(applied.code, applied.stderr).toBe(0);
  const zone = documentOf(applied).zones.central;
  expect(zone.sent).toBe(true);
  const routers = await ownedRouters();
  expect(routers).toEqual([...new Set(routers)]);
  expect(routers).toHaveLength(3);
  // the monitor was re-established on the new leader: its copy is the server's
  for (const deadline = Date.now() + 10_000; names().join() !== (await ownedRouters()).join(); await sleep(50))
    if (Date.now() > deadline) throw new Error(`the monitor did not follow: ${names().join()}`);
  watcher.close();
  const diff = ovnk(['diff', '-f', '-', '--nb', remotes, '-o', 'json'], { input: topology });
  expect(diff.code, diff.stdout).toBe(0);
  const rerun = documentOf(ovnk(['apply', '-f', '-', '--nb', remotes, '-o', 'json'], { input: topology }));
  expect(rerun.zones.central).toMatchObject({ sent: false, operations: 0 });
  await restartKilled(killed);
}

describe('the leader killed during an apply', () => {
  it('before the transaction reaches it: the client follows the new leader, the apply commits once and a rerun sends nothing', async () => {
    await applyWithLeaderKilled('before-request');
  }, 90_000);

  it('after it committed, before its answer: the resent transaction finds its own commit; once, and a rerun sends nothing', async () => {
    await applyWithLeaderKilled('after-answer');
  }, 90_000);
});

describe('the leader killed during a Pulumi refresh through the dynamic-provider host', () => {
  let testHost: TestHost | undefined;
  afterAll(() => stopTestHost(testHost));

  it('the read follows the new leader and finds no drift', async () => {
    testHost = await startTestHost(['ClusterAllocations'], { 'ovnk:nb': gate.remotes });
    const { host, shim } = testHost;
    const urn = dynamicUrn('ClusterAllocations', 'raft');
    const props = { owner: `${OWNER}/pulumi`, ...renamedTopology('colored-enterprise', 'central', '-raft') };
    const checked = await host.check(urn, {}, { __provider: shim.ClusterAllocations, ...props });
    expect(checked.failures).toEqual([]);
    const created = await host.create(urn, checked.inputs);
    const fired = gate.arm(
      (request) => request.includes('"transact"') && request.includes('"select"'),
      'before-request',
    );
    const read = await host.read(created.id, urn, created.properties);
    const killed = await fired;
    expect(read.id).toBe(created.id);
    expect(read.properties.drift).toEqual({ lines: [], count: 0 });
    await restartKilled(killed);
    await host.delete(created.id, urn, read.properties);
  }, 90_000);
});
