/**
 * Egress through the gateway bridges (issue 20), with packets: after `ovnk apply`, a pod of a CUDN
 * with an Uplink leaves through that Uplink's bridge, SNATed to the node's address on that segment
 * (the UplinkState's), and is answered; the segment's host sees it, the underlay does not. A pod
 * of a CUDN without Uplinks leaves through breth0 from its node's address, and so does blue's once
 * its CUDN no longer names the Uplink (the mapping we added goes). The lab has no default-network
 * pods (ovnk renders no default network): the node's own traffic is shown still leaving through
 * breth0 beside our flows, and a file whose last Uplink goes releases all we made. The
 * flows are ours only (cookies tagged 0xa11): a second apply writes none, a flow removed by hand is drift
 * that apply puts back, and destroy removes exactly ours.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import '../setup/lab';
import { echoRequestsSeen, nodePingsAnswered, ourCookies, ourFlows, pingsAnswered } from './egress-helpers';
import { ovnk, syncChassis } from './networks-helpers';
import { bridgeMappings, closeNodes, onNode } from './uplink-helpers';

const lab = inject('lab');
const file = path.resolve(__dirname, '../../stacks/egress.yaml');
const node = (name: string) => lab.nodes.find((n) => n.name === name)!;
const apply = () => ovnk('apply', '-f', file, '--lab', lab.name, '-o', 'json');
/** The address of UplinkState `<uplink>.<node>` as apply reported it. */
let addressOf: (state: string) => string;
let applied: ReturnType<typeof apply>;

beforeAll(() => {
  applied = apply();
  expect(applied.status, applied.stderr).toBe(0);
  syncChassis(lab);
  const states = applied.json.uplinkStates as { metadata: { name: string }; status: { ipAddresses: string[] } }[];
  addressOf = (name) => states.find((s) => s.metadata.name === name)!.status.ipAddresses[0]!.split('/')[0]!;
});

afterAll(async () => {
  ovnk('destroy', '-f', file, '--lab', lab.name);
  await closeNodes();
});

describe('egress through an Uplink bridge', () => {
  it("a blue pod on ovn-worker reaches 203.0.113.1 through br-blue, from ovn-worker's blue address, and not through the underlay", async () => {
    let answered = 0;
    const seen = await echoRequestsSeen(lab, ['xblue', 'br0'], async () => {
      answered = pingsAnswered(lab, 'egress-blue', '203.0.113.1');
    });
    expect(answered).toBe(3);
    expect(addressOf('egress-blue.ovn-worker')).toBe('203.0.113.12');
    expect(seen.xblue!.length).toBeGreaterThan(0);
    expect(new Set(seen.xblue)).toEqual(new Set(['203.0.113.12 203.0.113.1']));
    expect(seen.br0!.filter((l) => l.endsWith(' 203.0.113.1'))).toEqual([]);
  });

  it("a red pod on ovn-worker3 reaches 198.51.100.1 through br-red, from ovn-worker3's red address", async () => {
    let answered = 0;
    const seen = await echoRequestsSeen(lab, ['xred', 'br0'], async () => {
      answered = pingsAnswered(lab, 'egress-red', '198.51.100.1');
    });
    expect(answered).toBe(3);
    expect(seen.xred!.length).toBeGreaterThan(0);
    expect(new Set(seen.xred)).toEqual(new Set([`${addressOf('egress-red.ovn-worker3')} 198.51.100.1`]));
    expect(seen.br0!.filter((l) => l.endsWith(' 198.51.100.1'))).toEqual([]);
  });

  it("reports each bridge's flows written, and GatewayReady only where they are in place", () => {
    const flows = applied.json.uplinkFlows['ovn-worker'].bridges as { bridge: string; networks: string[] }[];
    expect(flows.find((b) => b.bridge === 'br-blue')).toMatchObject({
      networks: ['cluster_udn_egress-blue'],
      missing: 0,
      unexpected: 0,
    });
    const ready = (name: string) =>
      applied.json.uplinkStates
        .find((s: { metadata: { name: string } }) => s.metadata.name === name)
        .status.conditions.find((c: { type: string }) => c.type === 'GatewayReady');
    expect(ready('egress-blue.ovn-worker')).toMatchObject({ status: 'True', reason: 'GatewayConfigured' });
  });
});

describe('egress through breth0', () => {
  it("a pod of a CUDN without Uplinks reaches the underlay gateway through breth0, from its node's address", async () => {
    const worker = node('ovn-worker');
    const gateway = worker.encapIp.replace(/\.\d+$/, '.1');
    let answered = 0;
    const seen = await echoRequestsSeen(lab, ['br0', 'xblue', 'xred'], async () => {
      answered = pingsAnswered(lab, 'egress-green', gateway);
    });
    expect(answered).toBe(3);
    expect(seen.br0!.length).toBeGreaterThan(0);
    expect(new Set(seen.br0)).toEqual(new Set([`${worker.encapIp} ${gateway}`]));
    expect([...seen.xblue!, ...seen.xred!]).toEqual([]);
  });

  it("the node's own traffic, its host network, still leaves through breth0 from the node's address beside our flows", async () => {
    const worker = node('ovn-worker');
    const gateway = worker.encapIp.replace(/\.\d+$/, '.1');
    expect(await ourFlows(worker, 'breth0')).not.toEqual([]);
    let answered = 0;
    const seen = await echoRequestsSeen(lab, ['br0', 'xblue', 'xred'], async () => {
      answered = nodePingsAnswered(lab, worker.name, gateway);
    });
    expect(answered).toBe(3);
    expect(new Set(seen.br0)).toEqual(new Set([`${worker.encapIp} ${gateway}`]));
    expect([...seen.xblue!, ...seen.xred!]).toEqual([]);
  });

  it("removing the Uplink from blue's CUDN moves its egress to breth0 and removes the bridge mapping we added", async () => {
    const worker = node('ovn-worker');
    const withoutUplink = readFileSync(file, 'utf8').replace(/^ {2}uplinks: \[egress-blue\]\n/m, '');
    expect(withoutUplink).not.toContain('uplinks: [egress-blue]');
    const dir = mkdtempSync(path.join(tmpdir(), 'egress-'));
    writeFileSync(path.join(dir, 'egress.yaml'), withoutUplink);
    try {
      const moved = ovnk('apply', '-f', path.join(dir, 'egress.yaml'), '--lab', lab.name, '-o', 'json');
      expect(moved.status, moved.stderr).toBe(0);
      syncChassis(lab);
      expect(await bridgeMappings(worker)).not.toContain('cluster_udn_egress-blue');
      expect(await ourFlows(worker, 'br-blue')).toEqual([]);
      let answered = 0;
      const seen = await echoRequestsSeen(lab, ['xblue', 'br0'], async () => {
        answered = pingsAnswered(lab, 'egress-blue', '203.0.113.1');
      });
      // the fabric routes 203.0.113.1 itself: the request arrives on the underlay, from the node's address
      expect(answered).toBe(3);
      expect(seen.xblue).toEqual([]);
      expect(new Set(seen.br0!.filter((l) => l.endsWith(' 203.0.113.1')))).toEqual(
        new Set([`${worker.encapIp} 203.0.113.1`]),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      applied = apply();
      expect(applied.status, applied.stderr).toBe(0);
    }
    expect(await bridgeMappings(worker)).toContain('cluster_udn_egress-blue:br-blue');
  });
});

describe('the last Uplink going', () => {
  it('releases every bridge mapping and gateway flow we made on every node, once', async () => {
    const withoutUplinks = readFileSync(file, 'utf8')
      .split(/^---\n/m)
      .filter((doc) => !/^kind: Uplink$/m.test(doc))
      .join('---\n')
      .replace(/^ {2}uplinks: \[egress-(blue|red)\]\n/gm, '');
    expect(withoutUplinks).not.toMatch(/^kind: Uplink$|^ {2}uplinks:/m);
    const dir = mkdtempSync(path.join(tmpdir(), 'egress-'));
    const released = path.join(dir, 'egress.yaml');
    writeFileSync(released, withoutUplinks);
    const workers = [node('ovn-worker'), node('ovn-worker3')];
    try {
      const result = ovnk('apply', '-f', released, '--lab', lab.name, '-o', 'json');
      expect(result.status, result.stderr).toBe(0);
      for (const worker of workers) {
        expect(await bridgeMappings(worker)).not.toContain('cluster_udn_egress-');
        for (const bridge of ['br-blue', 'br-red', 'breth0']) expect(await ourFlows(worker, bridge)).toEqual([]);
      }
      const again = ovnk('apply', '-f', released, '--lab', lab.name, '-o', 'json');
      expect(again.status, again.stderr).toBe(0);
      expect(again.json.uplinkFlows).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      applied = apply();
      expect(applied.status, applied.stderr).toBe(0);
    }
    expect(await bridgeMappings(workers[0]!)).toContain('cluster_udn_egress-blue:br-blue');
  });
});

describe('our flows and nobody else’s', () => {
  const first = () => node('ovn-worker');

  it('a second apply writes no flow, and diff finds no drift', () => {
    const again = apply();
    expect(again.status, again.stderr).toBe(0);
    const written = Object.values(again.json.uplinkFlows as Record<string, { bridges: { written: boolean }[] }>)
      .flatMap((n) => n.bridges)
      .filter((b) => b.written);
    expect(written).toEqual([]);
    expect(ovnk('diff', '-f', file, '--lab', lab.name).status).toBe(0);
  });

  it('a flow removed by hand is drift with GatewayReady pending, and apply puts it back', async () => {
    const before = await ourFlows(first(), 'br-blue');
    await onNode(first(), 'ovs-ofctl', '-O', 'OpenFlow13', 'del-flows', 'br-blue', `${ourCookies},table=1`);
    const diff = ovnk('diff', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(diff.status).toBe(2);
    expect(diff.json.uplinkDrift).toContain(
      'node ovn-worker: bridge br-blue: 4 gateway flow(s) missing, 0 not planned',
    );
    const state = diff.json.uplinkStates.find(
      (s: { metadata: { name: string } }) => s.metadata.name === 'egress-blue.ovn-worker',
    );
    expect(state.status.conditions.find((c: { type: string }) => c.type === 'GatewayReady')).toMatchObject({
      status: 'False',
      reason: 'GatewayConfigurationPending',
    });
    expect(apply().status).toBe(0);
    expect(await ourFlows(first(), 'br-blue')).toEqual(before);
  });

  it('destroy removes exactly our flows: a flow with another cookie stays', async () => {
    const foreign = 'cookie=0xbeef,priority=7,arp,arp_tpa=192.0.2.7,actions=drop';
    await onNode(first(), 'ovs-ofctl', 'add-flow', 'br-blue', foreign);
    try {
      expect(ovnk('destroy', '-f', file, '--lab', lab.name).status).toBe(0);
      expect(await ourFlows(first(), 'br-blue')).toEqual([]);
      expect(await ourFlows(first(), 'br-red')).toEqual([]);
      const left = await onNode(first(), 'ovs-ofctl', 'dump-flows', 'br-blue', 'cookie=0xbeef/-1');
      expect(left).toContain('arp_tpa=192.0.2.7');
    } finally {
      await onNode(first(), 'ovs-ofctl', 'del-flows', 'br-blue', 'cookie=0xbeef/-1');
      applied = apply();
    }
  });
});
