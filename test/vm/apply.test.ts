/**
 * `ovnk apply/diff/destroy` end to end on a real kernel: the Inventory's only node is the QEMU
 * guest (its SSH settings from the vm lab), whose ovsdb-server holds the administrator's br-blue
 * (rows only; no vswitchd) and whose kernel has VRF. The Northbound is a real ovsdb-server started
 * here as a child. RouteAdvertisements with targetVRF auto makes apply enslave br-blue's host
 * interface into blue's VRF; dropping it and re-applying releases it; destroy releases only ours.
 * The guest runs no ovs-vswitchd (rows only), so the gateway flows of issue 20 cannot be written
 * there: every run that plans them fails on them alone (exit 4, GatewayReady False with upstream's
 * UplinkGatewayProgrammingFailed), without waiting for a patch port, and everything else is done.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trixieRoot } from '../../lab/trixie';
import { vmStatus } from '../../lab/vm';
import { bootGuest, type Guest, stopGuest } from './guest';

const cli = path.resolve(__dirname, '../../dist/cli/main.js');
let guest: Guest | undefined;
let nb: ChildProcess | undefined;
let dir = '';
const g = (): Guest => guest!;

const RA = `---
apiVersion: k8s.ovn.org/v1
kind: RouteAdvertisements
metadata: {name: blue-ra}
spec:
  targetVRF: auto
  advertisements: [PodNetwork]
  nodeSelector: {}
  frrConfigurationSelector: {}
  networkSelectors:
  - networkSelectionType: ClusterUserDefinedNetworks
    clusterUserDefinedNetworkSelector:
      networkSelector: {matchLabels: {k8s.ovn.org/metadata.name: blue}}
`;

/** The guest's SSH settings come from what `ovnk lab vm status` prints. */
function topology(withRa: boolean, uplinks = '[br-blue]'): string {
  const node = vmStatus(g().lab)!.nodes[0]!;
  return `apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: vmapply}
spec:
  zones: central
  ipFamilies: [IPv4]
  clusterSubnets: [10.244.0.0/16]
  serviceCIDRs: [10.96.0.0/16]
  gatewayMode: shared
  namespaces: [{name: blue, labels: {network: blue}}]
  nodes: [{name: ${node.name}, gatewayBridge: breth0}]
  targets:
    zones: {central: {nb: "unix:${path.join(dir, 'nb.sock')}"}}
    nodes:
      ${node.name}: {host: ${node.ssh.host}, port: ${node.ssh.port}, user: ${node.ssh.user}, hostKey: "${node.ssh.hostKeyFingerprint}", keyPath: "${node.ssh.keyPath}"}
---
apiVersion: k8s.ovn.org/v1alpha1
kind: Uplink
metadata: {name: br-blue}
spec:
  nodeConfigs: [{type: OVSBridge, nodeSelector: {}, hostInterfaceName: br-blue}]
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: blue, labels: {k8s.ovn.org/metadata.name: blue}}
spec:
  namespaceSelector: {matchLabels: {network: blue}}
  ${uplinks === '' ? '' : `uplinks: ${uplinks}`}
  network: {topology: Layer2, layer2: {role: Primary, subnets: [10.10.0.0/16]}}
${withRa ? RA : ''}`;
}

function ovnk(command: string, withRa: boolean, uplinks?: string): { code: number; json: Record<string, any> } {
  const file = path.join(dir, 'topology.yaml');
  writeFileSync(file, topology(withRa, uplinks));
  const result = spawnSync(process.execPath, [cli, command, '-f', file, '-o', 'json'], {
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: result.status ?? -1, json: JSON.parse(result.stdout) as Record<string, any> };
}

const linkOf = async (name: string) =>
  (JSON.parse(await g().sh(`ip -j -d link show ${name}`)) as { master?: string; ifalias?: string }[])[0]!;
const hasLink = async (name: string) => (await g().sh(`ip -br link show ${name} 2>/dev/null || true`)).trim() !== '';
const mainRoutes = async () =>
  (JSON.parse(await g().sh('ip -j -4 route show table main')) as { dst: string }[]).map((r) => r.dst);
const mappings = async () => (await g().sh('ovs-vsctl --no-wait get Open_vSwitch . external_ids')).trim();
const gatewayReady = (json: Record<string, any>) =>
  json.uplinkStates[0].status.conditions.find((c: { type: string }) => c.type === 'GatewayReady');

/** The one failure a run that plans gateway flows has on the guest: no ovs-vswitchd. */
function expectOnlyFlowsFail(result: { code: number; json: Record<string, any> }): void {
  expect(result.code).toBe(4);
  expect(result.json.uplinkFlows[g().node]).toEqual({
    ok: false,
    message: expect.stringContaining('no ovs-vswitchd runs there'),
  });
}

/**
 * The file's blue network is advertised, so its rows include upstream's `pass` ACL (OVN_Northbound
 * >= 7.0.4): the Northbound takes trixie's schema (7.11.0) where the lab's root has it, as the lab does.
 */
function nbSchema(): string {
  const trixie = path.join(trixieRoot(), 'usr', 'share', 'ovn', 'ovn-nb.ovsschema');
  return existsSync(trixie) ? trixie : '/usr/share/ovn/ovn-nb.ovsschema';
}

async function startNb(): Promise<ChildProcess> {
  const db = path.join(dir, 'nb.db');
  spawnSync('ovsdb-tool', ['create', db, nbSchema()]);
  const child = spawn(
    'ovsdb-server',
    [
      db,
      `--remote=punix:${path.join(dir, 'nb.sock')}`,
      '--no-chdir',
      `--unixctl=${path.join(dir, 'nb.ctl')}`,
      '--log-file=/dev/null',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 200 && !existsSync(path.join(dir, 'nb.sock')); i++) await new Promise((r) => setTimeout(r, 25));
  spawnSync('ovn-nbctl', [`--db=unix:${path.join(dir, 'nb.sock')}`, 'init']);
  return child;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-vm-apply-'));
  nb = await startNb();
  guest = await bootGuest();
  // the administrator's bridge: br-blue's host interface (a dummy here) with an address and a
  // route, its physical uplink eth2, and a VRF of someone else's that must survive destroy
  await g().sh(
    [
      'ip link add eth2 type dummy',
      'ip link set eth2 up',
      'ip link add br-blue type dummy',
      'ip link set br-blue up',
      'ip addr add 192.0.2.10/24 dev br-blue',
      'ip route add 198.51.100.0/24 via 192.0.2.1 dev br-blue proto static',
      'ip link add theirs type vrf table 77',
      'ip link set theirs up',
      'ovs-vsctl --no-wait add-br br-blue -- add-port br-blue eth2',
      'ovs-vsctl --no-wait set Open_vSwitch . external_ids:ovn-bridge-mappings=physnet:breth0',
    ].join('; '),
  );
});

afterAll(async () => {
  await stopGuest(guest);
  nb?.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('ovnk apply with RouteAdvertisements on a node with a VRF-capable kernel (QEMU guest)', () => {
  it("apply resolves the Uplink on the guest, writes the mapping and attaches br-blue to blue's VRF", async () => {
    const { code, json } = ovnk('apply', true);
    expectOnlyFlowsFail({ code, json });
    const node = g().node;
    expect(json.uplinkVrf[node].outcomes).toEqual([{ cudn: 'blue', state: 'enslaved', changed: true }]);
    expect(json.uplinkVrf[node].ran).toContain('enslave br-blue into VRF blue');
    expect(gatewayReady(json)).toMatchObject({ status: 'False', reason: 'UplinkGatewayProgrammingFailed' });
    expect(json.networks.cluster_udn_blue.conditions[0]).toMatchObject({ type: 'UplinksReady', status: 'False' });
    expect((await linkOf('br-blue')).master).toBe('blue');
    expect((await linkOf('blue')).ifalias).toBe('ovnk.io/owner=vmapply');
    expect(await mainRoutes()).not.toContain('198.51.100.0/24');
    expect(await mappings()).toContain('ovn-bridge-mappings="physnet:breth0,cluster_udn_blue:br-blue"');
  });

  it('a second apply changes nothing and diff finds no drift', async () => {
    const again = ovnk('apply', true);
    expectOnlyFlowsFail(again);
    expect(again.json.uplinkVrf[g().node]).toEqual({
      steps: [],
      ran: [],
      outcomes: [{ cudn: 'blue', state: 'enslaved' }],
    });
    expect(again.json.uplinkNodes[0].change).toBeUndefined();
    expect(again.json.zones.central.sent).toBe(false);
    const diff = ovnk('diff', true);
    expectOnlyFlowsFail(diff);
    expect(diff.json.uplinkDrift).toEqual([]);
  });

  it('a membership released by hand is drift, and apply repairs it', async () => {
    // releasing by hand flushes the interface's routes from the VRF table: the admin re-adds theirs
    await g().sh(
      'ip link set dev br-blue nomaster; ip route add 198.51.100.0/24 via 192.0.2.1 dev br-blue proto static',
    );
    const diff = ovnk('diff', true);
    // the drift is found and said; the node's failing flows make the exit 4, not 2 (a failure wins)
    expectOnlyFlowsFail(diff);
    expect(diff.json.uplinkDrift).toContain(
      `node ${g().node}: VRF membership differs: would enslave br-blue into VRF blue`,
    );
    expectOnlyFlowsFail(ovnk('apply', true));
    expect((await linkOf('br-blue')).master).toBe('blue');
    expect(await mainRoutes()).not.toContain('198.51.100.0/24');
  });

  it('removing the RouteAdvertisements and re-applying releases br-blue, moves its route back and deletes the VRF we made', async () => {
    const { code, json } = ovnk('apply', false);
    expectOnlyFlowsFail({ code, json });
    expect(json.uplinkVrf[g().node].outcomes).toEqual([{ cudn: 'blue', state: 'default', changed: true }]);
    expect((await linkOf('br-blue')).master).toBeUndefined();
    expect(await hasLink('blue')).toBe(false);
    expect(await mainRoutes()).toContain('198.51.100.0/24');
    expect(await mappings()).toContain('cluster_udn_blue:br-blue');
  });

  it("dropping the CUDN's spec.uplinks is reported as a replacement, and its mapping is removed", async () => {
    const { code, json } = ovnk('apply', false, '');
    expect(code).toBe(0);
    expect(json.uplinkReplacements).toEqual([
      {
        network: 'cluster_udn_blue',
        from: ['br-blue'],
        to: [],
        message: expect.stringContaining('ClusterUserDefinedNetwork/blue: spec.uplinks changed from [br-blue] to none'),
      },
    ]);
    expect(await mappings()).not.toContain('cluster_udn_blue');
    const back = ovnk('apply', false);
    expect(back.json.uplinkReplacements.map((r: { to: string[] }) => r.to)).toEqual([['br-blue']]);
    expect(ovnk('apply', false).json.uplinkReplacements).toEqual([]);
  });

  it('destroy releases only what we made: our membership, our VRF and our mapping; theirs stays', async () => {
    expectOnlyFlowsFail(ovnk('apply', true));
    expect((await linkOf('br-blue')).master).toBe('blue');
    const { code } = ovnk('destroy', true);
    expect(code).toBe(0);
    expect((await linkOf('br-blue')).master).toBeUndefined();
    expect(await hasLink('blue')).toBe(false);
    expect(await hasLink('theirs')).toBe(true);
    expect(await mainRoutes()).toContain('198.51.100.0/24');
    expect(await mappings()).toContain('ovn-bridge-mappings="physnet:breth0"');
    expect(await mappings()).not.toContain('cluster_udn_blue');
  });
});
