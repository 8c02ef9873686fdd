/**
 * breth0 beside upstream's own parts (issue 26 points 10 and 12), with packets. Where breth0
 * carries the default network's patch port (`patch-breth0_<node>-to-br-int`, which ovn-controller
 * makes for ovnkube-node's default network; the lab has no default network, so the test makes
 * that port, peered to a scratch bridge), our one flow for the shared MAC sends to it and to every
 * network (upstream's commonFlows), beside arpFanoutFilterFlows' priority 12 and 11; a CUDN's pod
 * still leaves through breth0. Where breth0 carries flows with upstream's cookie (ovnkube-node runs
 * there and replaces the bridge's flows every 15 s, openflow_manager.go), ovnk leaves the bridge to
 * it: `diff` says so without drift, `apply` writes and removes nothing there.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import '../setup/lab';
import { sharedCookie, upstreamCookie } from '../../provider/uplink/flows';
import { layer3, networkFor, ovsBridgeConfig, ownedNetworks, uplink, yamlOf } from '../support/objects';
import { echoRequestsSeen, ourFlows, pingsAnswered } from './egress-helpers';
import { ovnk, syncChassis } from './networks-helpers';
import { closeNodes, onNode } from './uplink-helpers';

const lab = inject('lab');
const file = path.resolve(__dirname, '../../stacks/egress.yaml');
const worker = () => lab.nodes.find((n) => n.name === 'ovn-worker')!;
const run = (command: string) => ovnk(command, '-f', file, '--lab', lab.name, '-o', 'json');
const defaultPatch = 'patch-breth0_ovn-worker-to-br-int';
const ofctl = (...argv: string[]) => onNode(worker(), 'ovs-ofctl', '-O', 'OpenFlow13', ...argv);

type Report = {
  bridge: string;
  written: boolean;
  managedBy?: string;
  missing: number;
  unexpected: number;
  error?: string;
};
const breth0Report = (result: ReturnType<typeof run>): Report =>
  result.json.uplinkFlows['ovn-worker'].bridges.find((b: Report) => b.bridge === 'breth0');

/** The green pod on ovn-worker reaches the underlay gateway through breth0, from the node's address. */
async function greenLeavesThroughBreth0(): Promise<void> {
  const gateway = worker().encapIp.replace(/\.\d+$/, '.1');
  let answered = 0;
  const seen = await echoRequestsSeen(lab, ['br0'], async () => {
    answered = pingsAnswered(lab, 'egress-green', gateway);
  });
  expect(answered).toBe(3);
  expect(new Set(seen.br0)).toEqual(new Set([`${worker().encapIp} ${gateway}`]));
}

beforeAll(() => {
  const applied = run('apply');
  expect(applied.status, applied.stderr).toBe(0);
  syncChassis(lab);
});

afterAll(async () => {
  ovnk('destroy', '-f', file, '--lab', lab.name);
  await closeNodes();
});

describe('breth0 carrying the default network', () => {
  it("sends the shared MAC to the default network's patch port and every network in one flow, filters ARP for the node address, and the green pod still leaves", async () => {
    // the scratch bridge takes breth0's datapath type, so the node's vswitchd opens it, and is
    // secure as br-int is: a bridge that learns MACs (NORMAL) would learn breth0's from our flow's
    // output, and deleting it then expires that MAC in every bridge of the datapath, breth0's
    // static entry for the host included (seen here: east-west traffic then broke for later files)
    const datapath = await onNode(worker(), 'ovs-vsctl', 'get', 'Bridge', 'breth0', 'datapath_type');
    await onNode(
      worker(),
      'ovs-vsctl',
      '--may-exist',
      'add-br',
      'br-t-default',
      '--',
      'set',
      'Bridge',
      'br-t-default',
      `datapath_type=${datapath}`,
      'fail_mode=secure',
      '--',
      'add-port',
      'breth0',
      defaultPatch,
      '--',
      'set',
      'Interface',
      defaultPatch,
      'type=patch',
      'options:peer=patch-t-default',
      '--',
      'add-port',
      'br-t-default',
      'patch-t-default',
      '--',
      'set',
      'Interface',
      'patch-t-default',
      'type=patch',
      `options:peer=${defaultPatch}`,
    );
    try {
      const port = await onNode(worker(), 'ovs-vsctl', 'get', 'Interface', defaultPatch, 'ofport');
      expect(Number(port)).toBeGreaterThan(0);
      const drift = run('diff');
      expect(drift.status, drift.stderr + JSON.stringify(drift.json?.uplinkFindings)).toBe(2);
      expect(drift.json.uplinkDrift.join('\n')).toMatch(
        /node ovn-worker: bridge breth0: \d+ gateway flow\(s\) missing/,
      );
      const applied = run('apply');
      expect(applied.status, applied.stderr).toBe(0);
      expect(breth0Report(applied)).toMatchObject({ written: true, missing: 0, unexpected: 0 });
      const shared = await ourFlows(worker(), 'breth0', `cookie=${sharedCookie}/-1`);
      const fanOut = shared.filter((f) => /priority=10,dl_dst=/.test(f) && !f.includes('table=1'));
      expect(fanOut).toHaveLength(1);
      expect(fanOut[0]).toMatch(new RegExp(`actions=output:${port},output:\\d+,NORMAL$`));
      expect(shared.find((f) => f.includes('priority=12,'))).toMatch(
        new RegExp(`arp,arp_tpa=${worker().encapIp.replace(/\./g, '\\.')},arp_op=1 actions=output:${port},NORMAL$`),
      );
      expect(shared.find((f) => f.includes('priority=11,'))).toMatch(
        new RegExp(`dl_dst=ff:ff:ff:ff:ff:ff.* actions=output:${port},output:\\d+,NORMAL$`),
      );
      await greenLeavesThroughBreth0();
      expect(run('diff').status).toBe(0);
    } finally {
      await onNode(
        worker(),
        'ovs-vsctl',
        '--if-exists',
        'del-br',
        'br-t-default',
        '--',
        '--if-exists',
        'del-port',
        'breth0',
        defaultPatch,
      );
    }
    const back = run('apply');
    expect(back.status, back.stderr).toBe(0);
    expect((await ourFlows(worker(), 'breth0')).filter((f) => /priority=1[12],/.test(f))).toEqual([]);
    // breth0's MAC stays the host's (lab/node.ts pinHostMac), so the node's own traffic stays out of OVN
    const fdb = await onNode(worker(), 'ovs-appctl', 'fdb/show', 'breth0');
    expect(fdb).toMatch(new RegExp(`^LOCAL\\s+0\\s+${worker().gatewayMac}\\s+static\\s*$`, 'm'));
  });
});

describe('breth0 managed by ovnkube-node', () => {
  const upstreamFlow = `cookie=${upstreamCookie},table=7,priority=1,actions=drop`;

  it('is left to it: diff says so without drift, apply writes nothing there even when a flow of ours is gone, and takes it back once upstream is gone', async () => {
    await ofctl('add-flow', 'breth0', upstreamFlow);
    try {
      const hostFlow = `cookie=${sharedCookie}/-1,table=1,priority=0`;
      await ofctl('--strict', 'del-flows', 'breth0', hostFlow);
      const before = await ourFlows(worker(), 'breth0');
      const diff = run('diff');
      expect(diff.status, diff.stderr).toBe(0);
      expect(diff.json.uplinkDrift).toEqual([
        "node ovn-worker: bridge breth0: gateway flows left to ovnkube-node (flows with its cookie 0xdeff105 are there; it replaces the bridge's flows every 15 s)",
      ]);
      const applied = run('apply');
      expect(applied.status, applied.stderr).toBe(0);
      expect(breth0Report(applied)).toMatchObject({ written: false, managedBy: 'ovnkube-node' });
      const written = Object.values(applied.json.uplinkFlows as Record<string, { bridges: Report[] }>)
        .flatMap((n) => n.bridges)
        .filter((b) => b.written);
      expect(written).toEqual([]);
      expect(await ourFlows(worker(), 'breth0')).toEqual(before);
    } finally {
      await ofctl('del-flows', 'breth0', `cookie=${upstreamCookie}/-1`);
    }
    const taken = run('apply');
    expect(taken.status, taken.stderr).toBe(0);
    expect(breth0Report(taken)).toMatchObject({ written: true, missing: 0, unexpected: 0 });
    expect(run('diff').status).toBe(0);
    await greenLeavesThroughBreth0();
  });
});

describe('a second owner on breth0 that gives another service network', () => {
  // a node has one service network (config.Kubernetes.ServiceCIDRs); breth0's masquerade-subnet
  // entry to it is shared by every owner's networks there, so the second Inventory is wrong
  // an Uplink in the file is what makes apply work on the nodes' bridges; amber's CUDN uses breth0
  const amber =
    ownedNetworks(
      'amber',
      {
        ipFamilies: ['IPv4'],
        masqueradeSubnets: ['169.254.0.0/17'],
        serviceCIDRs: ['172.30.0.0/16'],
        pods: [{ name: 'a', namespace: 'egress-amber', node: 'ovn-worker' }],
      },
      networkFor('egress-amber', layer3('10.65.0.0/16')),
    ) +
    '---\n' +
    yamlOf(uplink('egress-red', [ovsBridgeConfig('red0')]));

  it("is refused on breth0 naming both service CIDRs, and the first owner's flows, egress and diff stay as they were", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'egress-amber-'));
    const amberFile = path.join(dir, 'amber.yaml');
    writeFileSync(amberFile, amber);
    const shared = () => ourFlows(worker(), 'breth0', `cookie=${sharedCookie}/-1`);
    try {
      const before = await shared();
      const applied = ovnk('apply', '-f', amberFile, '--lab', lab.name, '-o', 'json');
      expect(applied.status, applied.stderr).toBe(4);
      expect(applied.json.ok).toBe(false);
      expect(breth0Report(applied)).toMatchObject({ written: false });
      expect(breth0Report(applied).error).toMatch(
        /use service CIDR 172\.16\.1\.0\/24, which this owner's Inventory spec\.serviceCIDRs \(172\.30\.0\.0\/16\)/,
      );
      expect(await shared()).toEqual(before);
      await greenLeavesThroughBreth0();
      expect(run('diff').status).toBe(0);
    } finally {
      ovnk('destroy', '-f', amberFile, '--lab', lab.name);
      rmSync(dir, { recursive: true, force: true });
    }
    expect(run('diff').status).toBe(0);
  });
});
