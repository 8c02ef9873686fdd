/**
 * Upstream's bridge resolution over Open_vSwitch rows (uplink-upstream.md section 4.1): the
 * bridge of a host interface (a bridge of that name, else the bridge holding a port or interface
 * of that name), and a bridge's physical uplink (its single system port, else
 * external_ids:bridge-uplink, else the name without `br`). Failures carry upstream's texts. Pure.
 */
import { failure, type Outcome, success } from '../model/outcome';
import type { OvsFacts, OvsPort } from './facts';

export function bridgeOf(ovs: OvsFacts, name: string): Outcome<string> {
  if (ovs.bridges.some((b) => b.name === name)) return success(name);
  const ports = ovs.ports.filter((p) => p.name === name || p.interfaces.includes(name));
  const step2 = ports.length === 0 ? `OVS port or interface ${name} not found` : undefined;
  const bridge = ovs.bridges.find((b) => ports.some((p) => b.ports.includes(p.name)));
  if (bridge) return success(bridge.name);
  // upstream then tries a SmartNIC representor; a plain netdev has none, so it reports step 2
  return failure(
    `failed to resolve OVS bridge for ${name}: ${step2 ?? `OVS port or interface ${name} is not attached to a bridge`}`,
  );
}

const isSystem = (type: string) => type === '' || type === 'system';

export function physicalUplinkOf(ovs: OvsFacts, bridgeName: string): Outcome<string> {
  const bridge = ovs.bridges.find((b) => b.name === bridgeName);
  if (!bridge) return failure(`failed to get OVS bridge ${bridgeName}: object not found`);
  const ports = bridge.ports
    .map((n) => ovs.ports.find((p) => p.name === n))
    .filter((p): p is OvsPort => p !== undefined);
  const systemPorts = ports.filter(
    (p) =>
      p.name !== bridgeName &&
      p.interfaces.some((i) => isSystem(ovs.interfaces.find((x) => x.name === i)?.type ?? 'missing')),
  );
  let candidate =
    systemPorts.length === 1 && ovs.interfaces.some((i) => i.name === systemPorts[0]!.name) ? systemPorts[0]!.name : '';
  if (candidate === '') candidate = bridge.externalIds['bridge-uplink'] ?? '';
  if (candidate === '' && bridgeName.startsWith('br')) candidate = bridgeName.slice(2);
  if (candidate === '') return failure(`failed to resolve physical uplink for OVS bridge ${bridgeName}`);
  if (!ovs.interfaces.some((i) => i.name === candidate))
    return failure(`failed to find interface for bridge ${bridgeName} physical uplink ${candidate}`);
  return success(candidate);
}

/** The VLAN tag of the OVS port carrying `name` (the host interface), if it is tagged. */
export function vlanTagOf(ovs: OvsFacts, name: string): number | undefined {
  return ovs.ports.find((p) => p.name === name || p.interfaces.includes(name))?.tag;
}
