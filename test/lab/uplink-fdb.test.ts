/**
 * The static FDB entry of each Uplink bridge on a lab node's real ovs-vswitchd, as upstream's
 * ovnkube-node pins it (go-controller/pkg/node/gateway_udn.go ensureUplinkGateway ->
 * configureUplinkStaticFDBEntry -> pkg/util/ovs.go SetStaticFDBEntry: `ovs-appctl fdb/add <bridge>
 * <port> <vlan> <mac>`, the port from bridgeconfig.go GetStaticFDBPort / gatewayHostOVSInterface,
 * the VLAN config.Gateway.VLANID, 0 by default). Upstream pins it once; ovnk also owns it: a
 * refresh reports it missing, apply pins it again, delete removes what ovnk pinned. The entry lives
 * in ovs-vswitchd only, and deleting a port of another bridge that had learnt the MAC expires it
 * (ofproto-dpif.c bundle_destroy), which a network moved between breth0 and br-blue does.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readState } from '../../lab';
import { applyUplinks, destroyUplinks, discoverUplinks, driftFindings } from '../../provider/runtime/uplink';
import { findCondition } from '../../provider/uplink';
import '../setup/lab';
import { learnOnPortThatGoes } from './capture-helpers';
import { ovnk, syncChassis } from './networks-helpers';
import {
  closeNodes,
  externalIds,
  fdbPinned,
  fdbUnpin,
  labCluster,
  linkMac,
  onNode,
  restoreExternalIds,
} from './uplink-helpers';

const lab = inject('lab');
const worker = lab.nodes[0]!;
const owner = 'fdb-lab';
const cluster = () => labCluster(lab);
const blue = { bridge: 'br-blue', port: 'blue0' };
const red = { bridge: 'br-red', port: 'red0' };
let saved: string;

const macOf = (link: string) => linkMac(worker, link);
const pinned = (entry: { bridge: string; port: string }) => fdbPinned(worker, entry);
const unpin = (entry: { bridge: string; port: string }) => fdbUnpin(worker, entry);

const stateOf = (result: Awaited<ReturnType<typeof discoverUplinks>>, name: string) =>
  result.uplinkStates.find((s) => s.metadata.name === name)!;

beforeAll(async () => {
  saved = await externalIds(worker);
  // files before this one on the shared lab may have left entries their restored records no longer list
  for (const b of [blue, red]) await unpin(b);
});

afterAll(async () => {
  await destroyUplinks(cluster(), owner).catch(() => undefined);
  await restoreExternalIds(worker, saved);
  await closeNodes();
});

describe("an Uplink bridge's static FDB entry on a lab node", () => {
  it("apply pins the UplinkState's MAC on its host interface's port, VLAN 0, static in fdb/show, and records it (gateway_udn.go configureUplinkStaticFDBEntry)", async () => {
    expect(await pinned(blue)).toBe(false);
    const applied = await applyUplinks(cluster(), owner);
    expect(await pinned(blue)).toBe(true);
    expect(await pinned(red)).toBe(true);
    const bridges = applied.fdb[worker.name];
    expect(bridges).toMatchObject({ ok: true });
    const report = bridges!.ok ? bridges!.bridges.find((b) => b.bridge === 'br-blue') : undefined;
    expect(report?.added).toEqual([`${await macOf('blue0')} on blue0 (VLAN 0)`]);
    const record = await onNode(
      worker,
      'ovs-vsctl',
      'get',
      'Open_vSwitch',
      '.',
      `external_ids:"ovnk.io/static-fdb/${owner}"`,
    );
    expect(record).toContain(`br-blue/blue0/0/${await macOf('blue0')}`);
  });

  it('a second apply pins nothing and writes no record', async () => {
    const before = await externalIds(worker);
    const again = await applyUplinks(cluster(), owner);
    const result = again.fdb[worker.name]!;
    expect(result.ok && result.bridges.flatMap((b) => [...b.added, ...b.removed])).toEqual([]);
    expect(again.written).toEqual({});
    // the conditions' times are the only other keys a run may write, and a run that changes no status writes none
    expect(await externalIds(worker)).toBe(before);
  });

  it('a refresh reports an entry ovs-vswitchd lost as drift with GatewayReady pending, and apply pins it again', async () => {
    await unpin(blue);
    const observed = await discoverUplinks(cluster(), owner);
    const drift = driftFindings({ ...observed, nodes: observed.nodes.filter((s) => s.node === worker.name) });
    expect(drift).toEqual([
      {
        kind: 'fdb',
        node: worker.name,
        bridge: 'br-blue',
        missing: [`${await macOf('blue0')} on blue0 (VLAN 0)`],
        unexpected: [],
      },
    ]);
    expect(findCondition(stateOf(observed, `blue.${worker.name}`).status.conditions, 'GatewayReady')).toMatchObject({
      status: 'False',
      reason: 'GatewayConfigurationPending',
    });
    await applyUplinks(cluster(), owner);
    expect(await pinned(blue)).toBe(true);
    const after = await discoverUplinks(cluster(), owner);
    expect(driftFindings({ ...after, nodes: after.nodes.filter((s) => s.node === worker.name) })).toEqual([]);
  });

  it('is expired when a port of breth0 that learnt the MAC goes (ofproto-dpif.c bundle_destroy), and a refresh then reports it and apply repairs it', async () => {
    // what a gateway router does while blue's network moves between br-blue and breth0: it sends
    // from br-blue's MAC through a patch port of breth0, which learns it there; ovn-controller then
    // deletes that patch port
    const mac = await macOf('blue0');
    const netns = readState(lab.name)!.layout.nodes.find((n) => n.name === worker.name)!.namespace;
    await learnOnPortThatGoes(
      (...argv) => onNode(worker, ...argv),
      netns,
      'breth0',
      mac,
      () => learnt('breth0', mac),
    );
    expect(await pinned(blue)).toBe(false);
    const observed = await discoverUplinks(cluster(), owner);
    const drift = driftFindings({ ...observed, nodes: observed.nodes.filter((s) => s.node === worker.name) });
    expect(drift.map((f) => f.kind)).toEqual(['fdb']);
    await applyUplinks(cluster(), owner);
    expect(await pinned(blue)).toBe(true);
  });

  it('delete removes the entries it pinned and its record', async () => {
    await destroyUplinks(cluster(), owner);
    expect(await pinned(blue)).toBe(false);
    expect(await pinned(red)).toBe(false);
    expect(await externalIds(worker)).not.toContain(`ovnk.io/static-fdb/${owner}`);
  });

  it('an entry pinned before its first apply is not recorded, and delete leaves it', async () => {
    await onNode(worker, 'ovs-appctl', 'fdb/add', 'br-blue', 'blue0', '0', await macOf('blue0'));
    try {
      const applied = await applyUplinks(cluster(), owner);
      const result = applied.fdb[worker.name]!;
      expect(result.ok && result.bridges.find((b) => b.bridge === 'br-blue')?.added).toEqual([]);
      expect(await pinned(red)).toBe(true);
      await destroyUplinks(cluster(), owner);
      expect(await pinned(blue)).toBe(true);
      expect(await pinned(red)).toBe(false);
    } finally {
      await unpin(blue);
    }
  });
});

describe("blue's static FDB entry while its network moves between br-blue and breth0", () => {
  const file = path.resolve(__dirname, '../../stacks/egress.yaml');
  const apply = (f = file) => ovnk('apply', '-f', f, '--lab', lab.name, '-o', 'json');

  afterAll(() => {
    ovnk('destroy', '-f', file, '--lab', lab.name);
  });

  it('is removed when the network leaves br-blue, pinned again when it comes back, and a refresh that then finds it expired reports it for the next apply to repair', async () => {
    expect(apply().status).toBe(0);
    expect(await pinned(blue)).toBe(true);
    const dir = mkdtempSync(path.join(tmpdir(), 'fdb-'));
    const moved = path.join(dir, 'egress.yaml');
    writeFileSync(moved, readFileSync(file, 'utf8').replace(/^ {2}uplinks: \[egress-blue\]\n/m, ''));
    try {
      expect(apply(moved).status).toBe(0);
      syncChassis(lab);
      // no network of ours is on br-blue any more: the entry ovnk pinned goes (upstream never removes it)
      expect(await pinned(blue)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(apply().status).toBe(0);
    syncChassis(lab);
    // on any node of blue, its gateway router may have sent from br-blue's MAC through breth0's
    // patch port before ovn-controller deleted it: bundle_destroy then expired that node's entry,
    // which diff must say, and nothing else
    const diff = ovnk('diff', '-f', file, '--lab', lab.name, '-o', 'json');
    if (diff.status !== 0) {
      const expirable = await blueEntriesMissing();
      const drift = diff.json.uplinkDrift as string[];
      expect(drift.length).toBeGreaterThan(0);
      for (const line of drift) expect(expirable).toContain(line);
      expect(apply().status).toBe(0);
    }
    expect(await pinned(blue)).toBe(true);
    expect(ovnk('diff', '-f', file, '--lab', lab.name).status).toBe(0);
  });
});

/** The drift line each lab node with a blue0 port would show if its br-blue entry expired. */
async function blueEntriesMissing(): Promise<string[]> {
  const lines = await Promise.all(
    lab.nodes.map(async (node) => {
      const mac = await linkMac(node, 'blue0').catch(() => undefined);
      return mac && `node ${node.name}: bridge br-blue: static FDB entry ${mac} on blue0 (VLAN 0) missing`;
    }),
  );
  return lines.filter((line): line is string => line !== undefined);
}

/** Until `bridge` shows `mac` learnt on some port (NORMAL switched the frame). */
async function learnt(bridge: string, mac: string): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const shown = await onNode(worker, 'ovs-appctl', 'fdb/show', bridge);
    if (new RegExp(`\\s${mac}\\s+\\d+\\s*$`, 'm').test(shown)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${bridge} on ${worker.name} never learnt ${mac}`);
}
