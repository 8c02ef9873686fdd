/**
 * UplinkState with RouteAdvertisements through the engine's dynamic-provider host, against a node
 * with a VRF-capable kernel (the QEMU guest, booted once). The guest's ovs-vswitchd holds the
 * administrator's br-blue (guest.ts), its own port the host interface with an address and an admin
 * route, and the patch port ovn-controller would make for blue. Create attaches br-blue to blue's
 * VRF and writes blue's gateway flows (GatewayReady True), a second create changes nothing, a
 * membership released by hand is drift on read and update repairs it, a bridge conflict is a
 * condition, and delete releases only what this owner made, its flows included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vmStatus } from '../../lab/vm';
import { anyOfOursMatch, ownerCookie } from '../../provider/uplink/cookies';
import { dynamicUrn, linkedConsumer, type Props, PulumiHost, providerText } from '../support/pulumiHost';
import {
  adminBridge,
  bootGuest,
  GUEST_TEST_TIMEOUT_MS,
  type Guest,
  guestFlows,
  ovnControllerPatchPort,
  stopGuest,
} from './guest';

const OWNER = 'ovnk-pulumi.vm-uplink/uplink/br-blue';
let guest: Guest | undefined;
let host: PulumiHost | undefined;
let consumer: { dir: string; remove: () => void } | undefined;
let shim = '';
let patchOfport = '';
const g = (): Guest => guest!;
const blueFlows = () => guestFlows(g(), 'br-blue', `cookie=${ownerCookie(OWNER)}/-1`);

const autoRa = (cudn: string) => ({
  apiVersion: 'k8s.ovn.org/v1',
  kind: 'RouteAdvertisements',
  metadata: { name: `${cudn}-ra` },
  spec: {
    targetVRF: 'auto',
    advertisements: ['PodNetwork'],
    nodeSelector: {},
    frrConfigurationSelector: {},
    networkSelectors: [
      {
        networkSelectionType: 'ClusterUserDefinedNetworks',
        clusterUserDefinedNetworkSelector: { networkSelector: { matchLabels: { 'k8s.ovn.org/metadata.name': cudn } } },
      },
    ],
  },
});

const cudn = (name: string, subnet: string) => ({
  apiVersion: 'k8s.ovn.org/v1',
  kind: 'ClusterUserDefinedNetwork',
  metadata: { name, labels: { 'k8s.ovn.org/metadata.name': name } },
  spec: {
    namespaceSelector: { matchLabels: { network: name } },
    uplinks: ['br-blue'],
    network: { topology: 'Layer2', layer2: { role: 'Primary', subnets: [subnet] } },
  },
});

/** The inputs the Uplink component gives the guest's UplinkState; `extra` adds CUDNs and their RouteAdvertisements. */
function props(extra: string[] = []): Props {
  const node = vmStatus(g().lab)!.nodes[0]!;
  const inventory = {
    apiVersion: 'ovnk/v1alpha1',
    kind: 'Inventory',
    metadata: { name: 'vmuplink' },
    spec: {
      zones: 'central',
      ipFamilies: ['IPv4'],
      clusterSubnets: ['10.244.0.0/16'],
      serviceCIDRs: ['10.96.0.0/16'],
      gatewayMode: 'shared',
      namespaces: [
        { name: 'blue', labels: { network: 'blue' } },
        { name: 'green', labels: { network: 'green' } },
      ],
      nodes: [{ name: node.name, gatewayBridge: 'breth0' }],
      targets: {
        nodes: {
          [node.name]: {
            host: node.ssh.host,
            port: node.ssh.port,
            user: node.ssh.user,
            hostKey: node.ssh.hostKeyFingerprint,
          },
        },
      },
    },
  };
  const uplink = {
    apiVersion: 'k8s.ovn.org/v1alpha1',
    kind: 'Uplink',
    metadata: { name: 'br-blue' },
    spec: { nodeConfigs: [{ type: 'OVSBridge', nodeSelector: {}, hostInterfaceName: 'br-blue' }] },
  };
  const networks = [cudn('blue', '10.10.0.0/16'), ...extra.map((n, i) => cudn(n, `10.${20 + i}.0.0/16`))];
  // red is not among this resource's CUDNs: its RouteAdvertisements and id are narrowed away by check
  const routeAdvertisements = ['blue', 'red', ...extra].map(autoRa);
  const networkIds: Record<string, number> = { cluster_udn_blue: 2, cluster_udn_red: 3, cluster_udn_green: 4 };
  return {
    __provider: shim,
    owner: OWNER,
    node: node.name,
    inventory,
    uplink,
    networks,
    routeAdvertisements,
    networkIds,
  };
}

const linkOf = async (name: string) =>
  (JSON.parse(await g().sh(`ip -j -d link show ${name}`)) as { master?: string; ifalias?: string }[])[0]!;
const hasLink = async (name: string) => (await g().sh(`ip -br link show ${name} 2>/dev/null || true`)).trim() !== '';
const mainRoutes = async () =>
  (JSON.parse(await g().sh('ip -j -4 route show table main')) as { dst: string }[]).map((r) => r.dst);
const mappings = async () => (await g().sh('ovs-vsctl --no-wait get Open_vSwitch . external_ids')).trim();
const gatewayReady = (outs: Props) =>
  (outs.uplinkState as { status: { conditions: { type: string }[] } }).status.conditions.find(
    (c) => c.type === 'GatewayReady',
  );

beforeAll(async () => {
  guest = await bootGuest();
  await adminBridge(g());
  const patch = await ovnControllerPatchPort(g(), 'br-blue', 'cluster_udn_blue');
  patchOfport = (await g().sh(`ovs-vsctl --timeout=30 get Interface ${patch} ofport`)).trim();
  consumer = linkedConsumer();
  host = await PulumiHost.start(consumer.dir);
  shim = providerText('UplinkState');
  // the key from stack config, never from the Inventory (whose inputs the state keeps)
  await host.configure({ 'ovnk:sshKeyFile': vmStatus(g().lab)!.nodes[0]!.ssh.keyPath });
});

afterAll(async () => {
  await host?.stop();
  consumer?.remove();
  await stopGuest(guest);
});

describe(
  'UplinkState with RouteAdvertisements through the host, on a VRF-capable node (QEMU guest)',
  { timeout: GUEST_TEST_TIMEOUT_MS },
  () => {
    const urn = dynamicUrn('UplinkState', 'br-blue.guest');
    let id = '';
    let outs: Props = {};
    let inputs: Props = {};

    it('check keeps only the RouteAdvertisements and network ids of its CUDNs', async () => {
      const checked = await host!.check(urn, {}, props());
      expect(checked.failures).toEqual([]);
      expect(
        (checked.inputs.routeAdvertisements as { metadata: { name: string } }[]).map((r) => r.metadata.name),
      ).toEqual(['blue-ra']);
      expect(checked.inputs.networkIds).toEqual({ cluster_udn_blue: 2 });
      inputs = checked.inputs;
    });

    it('a RouteAdvertisements the CRD would refuse fails check, naming it and the field', async () => {
      const bad = props();
      (bad.routeAdvertisements as { spec: Record<string, unknown> }[])[0]!.spec.advertisements = ['Nothing'];
      const { failures } = await host!.check(urn, {}, bad);
      expect(failures).toContainEqual({
        property: 'routeAdvertisements[0]',
        reason: expect.stringMatching(/^InvalidField: RouteAdvertisements\/blue-ra: spec\.advertisements\[0\]: /),
      });
    });

    it("create writes the mapping and enslaves br-blue into blue's VRF, moving the admin route", async () => {
      const created = await host!.create(urn, inputs);
      [id, outs] = [created.id, created.properties];
      expect(outs.vrf).toEqual({
        steps: expect.any(Array),
        ran: expect.arrayContaining(['enslave br-blue into VRF blue']),
        outcomes: [{ cudn: 'blue', state: 'enslaved', changed: true }],
      });
      expect(gatewayReady(outs)).toMatchObject({ status: 'True' });
      // blue's egress leaves its patch port SNATed to br-blue's address (provider/uplink/flows.ts)
      expect(
        (await blueFlows()).some((f) => f.includes(`in_port=${patchOfport}`) && f.includes('nat(src=192.0.2.10)')),
      ).toBe(true);
      expect(outs.mappings).toEqual(['cluster_udn_blue:br-blue']);
      expect((await linkOf('br-blue')).master).toBe('blue');
      expect((await linkOf('blue')).ifalias).toBe(`ovnk.io/owner=${OWNER}`);
      expect(await mainRoutes()).not.toContain('198.51.100.0/24');
      expect(await mappings()).toContain('ovn-bridge-mappings="physnet:breth0,cluster_udn_blue:br-blue"');
    });

    it('a second create changes nothing, read finds no drift and the diff is empty', async () => {
      const flows = await blueFlows();
      const again = await host!.create(urn, inputs);
      expect(await blueFlows()).toEqual(flows);
      expect(gatewayReady(again.properties)).toMatchObject({ status: 'True' });
      expect(again.properties.vrf).toEqual({ steps: [], ran: [], outcomes: [{ cudn: 'blue', state: 'enslaved' }] });
      const read = await host!.read(id, urn, outs);
      expect(read.properties.drift).toEqual({ lines: [], count: 0 });
      expect(read.properties.vrf).toEqual({ steps: [], ran: [], outcomes: [{ cudn: 'blue', state: 'enslaved' }] });
      expect((await host!.diff(id, urn, read.properties, inputs)).changes).toBe(1);
    });

    it('a membership released by hand shows on read as drift, and update repairs it', async () => {
      // releasing by hand flushes the interface's routes from the VRF table: the admin re-adds theirs
      await g().sh(
        'ip link set dev br-blue nomaster; ip route add 198.51.100.0/24 via 192.0.2.1 dev br-blue proto static',
      );
      const read = await host!.read(id, urn, outs);
      const drift = read.properties.drift as { lines: string[]; count: number };
      expect(drift.lines).toContain(`node ${g().node}: VRF membership differs: would enslave br-blue into VRF blue`);
      expect(drift.count).toBe(drift.lines.length);
      expect(read.properties.vrf).toMatchObject({
        ran: [],
        outcomes: [{ cudn: 'blue', state: 'enslaved', changed: true }],
      });
      expect((await host!.diff(id, urn, read.properties, inputs)).changes).toBe(2);
      const updated = await host!.update(id, urn, read.properties, inputs);
      expect((await linkOf('br-blue')).master).toBe('blue');
      expect(await mainRoutes()).not.toContain('198.51.100.0/24');
      outs = (await host!.read(id, urn, updated.properties)).properties;
      expect(outs.drift).toEqual({ lines: [], count: 0 });
    });

    it('two CUDNs needing distinct VRFs on br-blue are a conflict condition for both, and the existing membership stays', async () => {
      const checked = await host!.check(urn, outs, props(['green']));
      expect(checked.failures).toEqual([]);
      const updated = await host!.update(id, urn, outs, checked.inputs);
      const vrf = updated.properties.vrf as { outcomes: { cudn: string; state: string; reason?: string }[] };
      expect(vrf.outcomes.map((o) => [o.cudn, o.state, o.reason])).toEqual([
        ['blue', 'conflict', 'UplinkConfigurationConflict'],
        ['green', 'conflict', 'UplinkConfigurationConflict'],
      ]);
      expect(gatewayReady(updated.properties)).toMatchObject({
        status: 'False',
        reason: 'UplinkConfigurationConflict',
      });
      expect((await linkOf('br-blue')).master).toBe('blue');
      expect(await hasLink('green')).toBe(false);
      const back = await host!.update(id, urn, updated.properties, inputs);
      expect(gatewayReady(back.properties)).toMatchObject({ status: 'True' });
      outs = back.properties;
    });

    it('delete releases only what this owner made: the membership, its VRF and its mapping; theirs stays; again is a no-op', async () => {
      await host!.delete(id, urn, outs);
      expect((await linkOf('br-blue')).master).toBeUndefined();
      expect(await hasLink('blue')).toBe(false);
      expect(await hasLink('theirs')).toBe(true);
      expect(await mainRoutes()).toContain('198.51.100.0/24');
      expect(await mappings()).toContain('ovn-bridge-mappings="physnet:breth0"');
      expect(await guestFlows(g(), 'br-blue', anyOfOursMatch)).toEqual([]);
      await host!.delete(id, urn, outs);
      expect(await hasLink('theirs')).toBe(true);
    });
  },
);
