/**
 * One guest per test file: boot a vm lab with a data segment under a per-run name, hand out a
 * HostRunner with the pinned host key, and stop it (by pid) afterwards. Also the administrator's
 * br-blue the Uplink files find there, and the patch port ovn-controller would make on it.
 */
import { readVmState, vmDown, vmTarget, vmUp, type VmLabStatus } from '../../lab/vm';
import { SshHostRunner } from '../../provider/host';
import { patchPortOf } from '../../provider/runtime/uplink/flowIntents';

/**
 * A test's time on the guest: every command there is emulated (TCG), about 1 s of host CPU per SSH
 * command, 4 to 5 s per `ovnk apply` with its gateway flows; under a load of 20 on two cores one
 * apply took 15 to 20 s, and a test makes up to three runs and its checks.
 */
export const GUEST_TEST_TIMEOUT_MS = 180_000;

export interface Guest {
  lab: string;
  status: VmLabStatus;
  runner: SshHostRunner;
  node: string;
  sh(script: string): Promise<string>;
}

export async function bootGuest(): Promise<Guest> {
  const lab = `v${process.pid.toString(36)}`.slice(0, 7);
  await vmDown(lab);
  const status = await vmUp({ name: lab, nodes: 1, data: true });
  const state = readVmState(lab)!;
  const runner = new SshHostRunner(vmTarget(state, state.nodes[0]!));
  const sh = async (script: string) => {
    const result = await runner.run(['sh', '-ec', script]);
    if (result.exitCode !== 0) throw new Error(`guest script failed: ${script}: ${result.stderr}`);
    return result.stdout;
  };
  return { lab, status, runner, node: state.nodes[0]!.name, sh };
}

export async function stopGuest(guest: Guest | undefined): Promise<void> {
  if (!guest) return;
  await guest.runner.close();
  await vmDown(guest.lab);
}

/**
 * The administrator's br-blue on the guest's ovs-vswitchd (the kernel datapath), with its physical
 * uplink eth2 (a dummy) and its own port as host interface, holding an address and an admin route;
 * a VRF of someone else's that must survive; the default network's bridge mapping. `ovs-vsctl`
 * waits for vswitchd, so br-blue's device exists after it.
 */
export async function adminBridge(guest: Guest): Promise<void> {
  await guest.sh(
    [
      'ip link add eth2 type dummy',
      'ip link set eth2 up',
      'ovs-vsctl --timeout=30 add-br br-blue -- add-port br-blue eth2',
      'ip link set br-blue up',
      'ip addr add 192.0.2.10/24 dev br-blue',
      'ip route add 198.51.100.0/24 via 192.0.2.1 dev br-blue proto static',
      'ip link add theirs type vrf table 77',
      'ip link set theirs up',
      'ovs-vsctl --timeout=30 set Open_vSwitch . external_ids:ovn-bridge-mappings=physnet:breth0',
    ].join('; '),
  );
}

/**
 * The patch port pair ovn-controller makes for a network's localnet port on `bridge` once the
 * bridge mapping names it (ovn's controller/patch.c, add_bridge_mappings: `patch-<port>-to-br-int`
 * on the bridge, `patch-br-int-to-<port>` on br-int, external_ids:ovn-localnet-port). The guest
 * runs no ovn-controller (it has no Southbound), so the test makes them as it would; the gateway
 * flows wait for this port (upstream waits for it too) and send the network's traffic to it.
 */
export async function ovnControllerPatchPort(guest: Guest, bridge: string, network: string): Promise<string> {
  const onBridge = patchPortOf(bridge, network, guest.node);
  const localnet = onBridge.replace(/^patch-/, '').replace(/-to-br-int$/, '');
  const onInt = `patch-br-int-to-${localnet}`;
  await guest.sh(
    [
      'ovs-vsctl --timeout=30 --may-exist add-br br-int -- set Bridge br-int fail_mode=secure',
      `-- --may-exist add-port br-int ${onInt} -- set Port ${onInt} external_ids:ovn-localnet-port=${localnet}`,
      `-- set Interface ${onInt} type=patch options:peer=${onBridge}`,
      `-- --may-exist add-port ${bridge} ${onBridge} -- set Port ${onBridge} external_ids:ovn-localnet-port=${localnet}`,
      `-- set Interface ${onBridge} type=patch options:peer=${onInt}`,
    ].join(' '),
  );
  return onBridge;
}

/** The flows on `bridge` matching `match` (a cookie), one a line without statistics, from the guest's ovs-vswitchd. */
export async function guestFlows(guest: Guest, bridge: string, match: string): Promise<string[]> {
  const out = await guest.sh(`ovs-ofctl -O OpenFlow13 --no-stats --no-names dump-flows ${bridge} '${match}'`);
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.includes('actions='));
}
