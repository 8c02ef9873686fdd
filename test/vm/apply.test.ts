/**
 * `ovnk apply/diff/destroy` end to end on a real kernel: the Inventory's only node is the QEMU
 * guest (its SSH settings from the vm lab), whose ovs-vswitchd (userspace datapath) holds the
 * administrator's br-blue and whose kernel has VRF. The Northbound is a real ovsdb-server started
 * here as a child. RouteAdvertisements with targetVRF auto makes apply enslave br-blue's host
 * interface into blue's VRF and write blue's gateway flows on br-blue (issue 20) against the patch
 * port ovn-controller would make (the guest runs none: guest.ts makes it), every run exiting 0
 * with GatewayReady True; dropping the RouteAdvertisements and re-applying releases the VRF;
 * destroy releases only ours and removes our flows.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trixieRoot } from '../../lab/trixie';
import { vmStatus } from '../../lab/vm';
import { anyOfOursMatch, ownerCookie } from '../../provider/uplink/cookies';
import {
  adminBridge,
  bootGuest,
  GUEST_TEST_TIMEOUT_MS,
  type Guest,
  guestFlows,
  ovnControllerPatchPort,
  stopGuest,
} from './guest';

const cli = path.resolve(__dirname, '../../dist/cli/main.js');
let guest: Guest | undefined;
let nb: ChildProcess | undefined;
let dir = '';
let patchOfport = '';
let eth2Ofport = '';
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

/** A run that exits 0 with the guest's flows in sync (written or not) and nothing failed on the node. */
function expectClean(result: { code: number; json: Record<string, any> }, written: boolean): void {
  expect(result.code, JSON.stringify(result.json.uplinkFlows)).toBe(0);
  expect(result.json.ok).toBe(true);
  expect(result.json.uplinkFlows[g().node]).toEqual({
    ok: true,
    bridges: [{ bridge: 'br-blue', networks: ['cluster_udn_blue'], missing: 0, unexpected: 0, written }],
  });
}

const ourFlowsOnBrBlue = () => guestFlows(g(), 'br-blue', `cookie=${ownerCookie('vmapply')}/-1`);

/**
 * Blue's own flows on br-blue (provider/uplink/flows.ts, networkFlows): its egress from the patch
 * port SNATed to br-blue's address out of eth2, and its replies back to the patch port.
 */
async function expectBlueFlows(): Promise<void> {
  const flows = await ourFlowsOnBrBlue();
  expect(flows.some((f) => f.includes(`in_port=${patchOfport}`) && f.includes('nat(src=192.0.2.10)'))).toBe(true);
  expect(flows.filter((f) => f.includes('nat(src=192.0.2.10)')).every((f) => f.endsWith(`output:${eth2Ofport}`))).toBe(
    true,
  );
  expect(flows.filter((f) => f.includes('table=1') && f.includes('ct_mark='))).toEqual(
    expect.arrayContaining([expect.stringMatching(new RegExp(`actions=output:${patchOfport}$`))]),
  );
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
  await adminBridge(g());
  const patch = await ovnControllerPatchPort(g(), 'br-blue', 'cluster_udn_blue');
  patchOfport = (await g().sh(`ovs-vsctl --timeout=30 get Interface ${patch} ofport`)).trim();
  eth2Ofport = (await g().sh('ovs-vsctl --timeout=30 get Interface eth2 ofport')).trim();
});

afterAll(async () => {
  await stopGuest(guest);
  nb?.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe(
  'ovnk apply with RouteAdvertisements on a node with a VRF-capable kernel (QEMU guest)',
  { timeout: GUEST_TEST_TIMEOUT_MS },
  () => {
    it("apply exits 0: it resolves the Uplink, writes the mapping and blue's gateway flows, and attaches br-blue to blue's VRF", async () => {
      const { code, json } = ovnk('apply', true);
      expectClean({ code, json }, true);
      const node = g().node;
      expect(json.uplinkVrf[node].outcomes).toEqual([{ cudn: 'blue', state: 'enslaved', changed: true }]);
      expect(json.uplinkVrf[node].ran).toContain('enslave br-blue into VRF blue');
      expect(gatewayReady(json)).toMatchObject({ status: 'True' });
      expect(json.networks.cluster_udn_blue.conditions[0]).toMatchObject({ type: 'UplinksReady', status: 'True' });
      await expectBlueFlows();
      expect((await linkOf('br-blue')).master).toBe('blue');
      expect((await linkOf('blue')).ifalias).toBe('ovnk.io/owner=vmapply');
      expect(await mainRoutes()).not.toContain('198.51.100.0/24');
      expect(await mappings()).toContain('ovn-bridge-mappings="physnet:breth0,cluster_udn_blue:br-blue"');
    });

    it('a second apply changes nothing and diff finds no drift', async () => {
      const flows = await ourFlowsOnBrBlue();
      const again = ovnk('apply', true);
      expectClean(again, false);
      expect(again.json.uplinkVrf[g().node]).toEqual({
        steps: [],
        ran: [],
        outcomes: [{ cudn: 'blue', state: 'enslaved' }],
      });
      expect(again.json.uplinkNodes[0].change).toBeUndefined();
      expect(again.json.zones.central.sent).toBe(false);
      expect(await ourFlowsOnBrBlue()).toEqual(flows);
      const diff = ovnk('diff', true);
      expectClean(diff, false);
      expect(diff.json.uplinkDrift).toEqual([]);
    });

    it('a membership released by hand is drift (exit 2), and apply repairs it', async () => {
      // releasing by hand flushes the interface's routes from the VRF table: the admin re-adds theirs
      await g().sh(
        'ip link set dev br-blue nomaster; ip route add 198.51.100.0/24 via 192.0.2.1 dev br-blue proto static',
      );
      const diff = ovnk('diff', true);
      expect(diff.code).toBe(2);
      expect(diff.json.uplinkDrift).toContain(
        `node ${g().node}: VRF membership differs: would enslave br-blue into VRF blue`,
      );
      expectClean(ovnk('apply', true), false);
      expect((await linkOf('br-blue')).master).toBe('blue');
      expect(await mainRoutes()).not.toContain('198.51.100.0/24');
    });

    it('flows deleted by hand are drift (exit 2), and apply writes them again', async () => {
      await g().sh(`ovs-ofctl -O OpenFlow13 del-flows br-blue '${anyOfOursMatch}'`);
      const diff = ovnk('diff', true);
      expect(diff.code).toBe(2);
      expect(diff.json.uplinkDrift.join('\n')).toMatch(/bridge br-blue: \d+ gateway flow\(s\) missing/);
      expectClean(ovnk('apply', true), true);
      await expectBlueFlows();
    });

    it('removing the RouteAdvertisements and re-applying releases br-blue, moves its route back and deletes the VRF we made', async () => {
      const advertised = (await ourFlowsOnBrBlue()).filter((f) => f.includes('priority=300'));
      const { code, json } = ovnk('apply', false);
      // an advertised network's routed flows (routedFlows.ts) go with its RouteAdvertisements
      expectClean({ code, json }, true);
      expect(advertised).not.toEqual([]);
      expect((await ourFlowsOnBrBlue()).filter((f) => f.includes('priority=300'))).toEqual([]);
      expect(json.uplinkVrf[g().node].outcomes).toEqual([{ cudn: 'blue', state: 'default', changed: true }]);
      expect(gatewayReady(json)).toMatchObject({ status: 'True' });
      expect((await linkOf('br-blue')).master).toBeUndefined();
      expect(await hasLink('blue')).toBe(false);
      expect(await mainRoutes()).toContain('198.51.100.0/24');
      expect(await mappings()).toContain('cluster_udn_blue:br-blue');
      await expectBlueFlows();
    });

    it("dropping the CUDN's spec.uplinks is reported as a replacement, and its mapping and flows are removed", async () => {
      const { code, json } = ovnk('apply', false, '');
      expect(code).toBe(0);
      expect(json.uplinkReplacements).toEqual([
        {
          network: 'cluster_udn_blue',
          from: ['br-blue'],
          to: [],
          message: expect.stringContaining(
            'ClusterUserDefinedNetwork/blue: spec.uplinks changed from [br-blue] to none',
          ),
        },
      ]);
      expect(await mappings()).not.toContain('cluster_udn_blue');
      expect(await guestFlows(g(), 'br-blue', anyOfOursMatch)).toEqual([]);
      const back = ovnk('apply', false);
      expectClean(back, true);
      expect(back.json.uplinkReplacements.map((r: { to: string[] }) => r.to)).toEqual([['br-blue']]);
      expect(ovnk('apply', false).json.uplinkReplacements).toEqual([]);
    });

    it('destroy releases only what we made: our membership, our VRF, our mapping and our flows; theirs stays', async () => {
      expectClean(ovnk('apply', true), true);
      expect((await linkOf('br-blue')).master).toBe('blue');
      const { code } = ovnk('destroy', true);
      expect(code).toBe(0);
      expect((await linkOf('br-blue')).master).toBeUndefined();
      expect(await hasLink('blue')).toBe(false);
      expect(await hasLink('theirs')).toBe(true);
      expect(await mainRoutes()).toContain('198.51.100.0/24');
      expect(await mappings()).toContain('ovn-bridge-mappings="physnet:breth0"');
      expect(await mappings()).not.toContain('cluster_udn_blue');
      expect(await guestFlows(g(), 'br-blue', anyOfOursMatch)).toEqual([]);
      // the bridge's own flow (vswitchd's NORMAL, without a cookie) stays
      expect(await guestFlows(g(), 'br-blue', 'cookie=0/-1')).toContain('priority=0 actions=NORMAL');
    });
  },
);
