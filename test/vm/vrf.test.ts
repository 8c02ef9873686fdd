import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readVmState, vmDown, vmTarget } from '../../lab/vm';
import { SshHostRunner } from '../../provider/host';
import type { RouteAdvertisements } from '../../provider/model/routeAdvertisements';
import { applyVrf, planVrfOnHost } from '../../provider/runtime/vrf';
import { effectiveDomain, type VrfIntent } from '../../provider/uplink/vrf';
import { bootGuest, type Guest, stopGuest } from './guest';

const OWNER = 'vm-test';
const EMPTY = { matchLabels: {}, matchExpressions: [] };
const autoFor = (cudn: string): RouteAdvertisements => ({
  ref: `RouteAdvertisements/${cudn}-ra`,
  name: `${cudn}-ra`,
  targetVRF: 'auto',
  advertisements: ['PodNetwork'],
  nodeSelector: EMPTY,
  frrConfigurationSelector: EMPTY,
  networkSelectors: [
    {
      networkSelectionType: 'ClusterUserDefinedNetworks',
      cudnSelector: { matchLabels: { 'k8s.ovn.org/metadata.name': cudn } },
    },
  ],
});
const cudn = (name: string, networkId: number) => ({ name, networkId, labels: { 'k8s.ovn.org/metadata.name': name } });

function intent(name: string, networkId: number, iface: string, ras: RouteAdvertisements[]): VrfIntent {
  return {
    cudn: name,
    networkId,
    hostInterface: iface,
    bridge: iface,
    domain: effectiveDomain(cudn(name, networkId), {}, ras),
  };
}

let guest: Guest | undefined;
const g = (): Guest => guest!;
const linkOf = async (name: string) =>
  JSON.parse(await g().sh(`ip -j -d link show ${name}`))[0] as {
    master?: string;
    linkinfo?: { info_data?: { table?: number } };
    ifalias?: string;
  };
const routes = async (table: string) =>
  JSON.parse(await g().sh(`ip -j -4 route show table ${table}`)) as { dst: string; gateway?: string; dev: string }[];

beforeAll(async () => {
  guest = await bootGuest();
  // br-blue and br-red stand in for the bridges' host interfaces: an address and an admin route each
  await g().sh(
    [
      'ip link add br-blue type dummy',
      'ip link set br-blue up',
      'ip addr add 192.0.2.10/24 dev br-blue',
      'ip route add 198.51.100.0/24 via 192.0.2.1 dev br-blue proto static',
      'ip link add br-red type dummy',
      'ip link set br-red up',
      'ip addr add 203.0.113.10/24 dev br-red',
    ].join('; '),
  );
});

afterAll(async () => stopGuest(guest));

describe('VRF membership on a real kernel (QEMU guest)', () => {
  it("the guest runs Debian's kernel and its data NIC has the segment address", async () => {
    expect((await g().sh('uname -r')).trim()).toBe(g().status.kernelVersion);
    expect(await g().sh('ip -br addr show eth1')).toContain('192.168.50.1/24');
  });

  it('a CUDN selected with targetVRF auto gets its VRF created and its interface enslaved, with the admin route moved into the VRF table', async () => {
    const result = await applyVrf(g().runner, g().node, [intent('blue', 2, 'br-blue', [autoFor('blue')])], OWNER);
    expect(result.outcomes).toEqual([{ cudn: 'blue', state: 'enslaved', changed: true }]);
    expect((await linkOf('br-blue')).master).toBe('blue');
    const vrf = await linkOf('blue');
    expect(vrf.linkinfo?.info_data?.table).toBe(100002);
    expect(vrf.ifalias).toBe(`ovnk.io/owner=${OWNER}`);
    expect(await routes('100002')).toContainEqual(
      expect.objectContaining({ dst: '198.51.100.0/24', gateway: '192.0.2.1', dev: 'br-blue' }),
    );
    expect((await routes('main')).map((r) => r.dst)).not.toContain('198.51.100.0/24');
    expect(JSON.parse(await g().sh('cat /run/ovnk/vrf/br-blue.json'))).toEqual({
      interface: 'br-blue',
      vrf: 'blue',
      cudn: 'blue',
      owner: OWNER,
    });
  });

  it('a second apply plans no steps', async () => {
    const plan = await planVrfOnHost(g().runner, g().node, [intent('blue', 2, 'br-blue', [autoFor('blue')])], OWNER);
    expect(plan.steps).toEqual([]);
    expect(plan.outcomes).toEqual([{ cudn: 'blue', state: 'enslaved' }]);
  });

  it('two CUDNs needing distinct VRFs on one bridge both conflict, nothing new is programmed, and the existing membership stays', async () => {
    const ras = [autoFor('blue'), autoFor('red')];
    const result = await applyVrf(
      g().runner,
      g().node,
      [intent('blue', 2, 'br-blue', ras), intent('red', 3, 'br-blue', ras)],
      OWNER,
    );
    expect(result.ran).toEqual([]);
    expect(result.outcomes.map((o) => [o.cudn, o.state, o.reason])).toEqual([
      ['blue', 'conflict', 'UplinkConfigurationConflict'],
      ['red', 'conflict', 'UplinkConfigurationConflict'],
    ]);
    expect(result.outcomes[0]!.message).toContain('bridge br-blue');
    expect((await linkOf('br-blue')).master).toBe('blue');
    expect(await g().sh('ip -br link show red 2>/dev/null || true')).toBe('');
  });

  it("the node's management interface is refused with a reason, and stays out of every VRF", async () => {
    const result = await applyVrf(g().runner, g().node, [intent('green', 4, 'eth0', [autoFor('green')])], OWNER);
    expect(result.outcomes[0]).toMatchObject({ cudn: 'green', state: 'refused', reason: 'UplinkVRFAttachmentFailed' });
    expect(result.outcomes[0]!.message).toMatch(/eth0 .*management interface/);
    expect((await linkOf('eth0')).master).toBeUndefined();
  });

  it('an interface enslaved by someone else is reported as a conflict and left alone, also when its CUDN goes to the default VRF', async () => {
    await g().sh('ip link add admin type vrf table 77; ip link set admin up; ip link set br-red master admin');
    // blue stays advertised: a CUDN left out of the intents would have its membership released
    const blue = intent('blue', 2, 'br-blue', [autoFor('blue')]);
    const attach = await applyVrf(g().runner, g().node, [blue, intent('red', 3, 'br-red', [autoFor('red')])], OWNER);
    expect(attach.outcomes[1]).toMatchObject({
      state: 'conflict',
      message: 'interface br-red is already assigned to VRF admin and cannot be assigned to VRF red',
    });
    const detach = await applyVrf(g().runner, g().node, [blue, intent('red', 3, 'br-red', [])], OWNER);
    expect(detach.ran).toEqual([]);
    expect((await linkOf('br-red')).master).toBe('admin');
  });

  it('when the advertisement stops, the interface is released, its route moved back to main, and the VRF we created deleted', async () => {
    const result = await applyVrf(g().runner, g().node, [intent('blue', 2, 'br-blue', [])], OWNER);
    expect(result.outcomes).toEqual([{ cudn: 'blue', state: 'default', changed: true }]);
    expect((await linkOf('br-blue')).master).toBeUndefined();
    expect(await routes('main')).toContainEqual(
      expect.objectContaining({ dst: '198.51.100.0/24', gateway: '192.0.2.1', dev: 'br-blue' }),
    );
    expect(await g().sh('ip -br link show blue 2>/dev/null || true')).toBe('');
    expect(await g().sh('ls /run/ovnk/vrf')).not.toContain('br-blue');
    expect((await planVrfOnHost(g().runner, g().node, [intent('blue', 2, 'br-blue', [])], OWNER)).steps).toEqual([]);
  });

  it('a runner pinned to another host key is refused', async () => {
    const state = readVmState(g().lab)!;
    const wrong = new SshHostRunner({
      ...vmTarget(state, state.nodes[0]!),
      hostKey: { fingerprint: 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    await expect(wrong.run(['true'])).rejects.toThrow(/refusing to connect/);
    await wrong.close();
  });

  it('down stops the guest by pid and removes its directory and tap links', async () => {
    const state = readVmState(g().lab)!;
    await g().runner.close();
    await vmDown(g().lab);
    const status = existsSync(`/proc/${state.nodes[0]!.pid}/status`)
      ? await import('node:fs').then((fs) => fs.readFileSync(`/proc/${state.nodes[0]!.pid}/status`, 'utf8'))
      : 'State: gone';
    expect(status).toMatch(/State:\s+(Z|gone)/);
    expect(existsSync(state.dir)).toBe(false);
    for (const link of state.links) expect(existsSync(`/sys/class/net/${link}`)).toBe(false);
    guest = undefined;
  });
});
