/**
 * The pods a zone plugs in (pure): for each rendered pod, the logical switch port it binds to,
 * its MAC, its addresses with the prefix of the subnet they came from, and its default gateways
 * (the `.1` of the node's host subnet for Layer3, of the network subnet for Layer2: OKEP-5094's
 * node-independent gateway); a secondary network's pods get routes instead (secondaryRoutes).
 * Whoever plugs pods (the lab, a host step) takes these as they are.
 */
import { parseCidr, type Cidr, containsAddress, parseAddress } from '../model/cidr';
import { nodeGatewayIP, resolveInfrastructure } from '../topology/infrastructure';
import type { RenderInput } from '../topology/input';
import { macFromIPs } from '../topology/mac';
import { podPort } from '../topology/names';

export interface PodPlug {
  namespace: string;
  name: string;
  node: string;
  /** OVN network name. */
  network: string;
  /** The logical switch port (OVS `external_ids:iface-id`). */
  ifaceId: string;
  mac: string;
  /** `ip/prefix`, IPv4 first. */
  addresses: string[];
  /** Default routes' next hops (primary networks). */
  gateways: string[];
  /** `<destination> via <next hop>` routes (a secondary Layer3 network's subnets via its node gateway). */
  routes?: string[];
  mtu: number;
}

function subnetsFor(input: RenderInput, node: string): Cidr[] {
  const texts =
    input.network.topology !== 'layer3'
      ? input.network.subnets.map((s) => s.cidr)
      : (input.nodes.find((n) => n.name === node)?.hostSubnets?.[input.network.name] ?? []);
  return texts.flatMap((t) => {
    const c = parseCidr(t);
    return c.ok ? [c.value] : [];
  });
}

/** The pods of one RenderInput that sit on the zone's local nodes. */
export function podPlugs(input: RenderInput): PodPlug[] {
  const local = new Set(input.zone.localNodes);
  return (input.pods ?? [])
    .filter((p) => local.has(p.node))
    .map((pod) => {
      const subnets = subnetsFor(input, pod.node);
      // a primary Layer2 network's gateway may be preconfigured (upstream's GetNodeGatewayIP)
      const infrastructure = resolveInfrastructure(input.network.preconfigured, subnets);
      const addresses: string[] = [];
      const gateways: string[] = [];
      for (const ip of pod.ips) {
        const parsed = parseAddress(ip)!;
        const subnet = subnets.find((s) => containsAddress(s, parsed.family, parsed.value));
        if (!subnet) continue;
        addresses.push(`${ip}/${subnet.prefix}`);
        gateways.push(nodeGatewayIP(infrastructure, subnet).ip);
      }
      const secondary = input.network.role === 'secondary';
      return {
        ...(secondary ? { gateways: [], routes: secondaryRoutes(input, gateways) } : { gateways }),
        namespace: pod.namespace,
        name: pod.name,
        node: pod.node,
        network: input.network.name,
        ifaceId: podPort(pod.nadKey, pod.namespace, pod.name),
        mac: pod.mac ?? macFromIPs(pod.ips),
        addresses,
        mtu: input.network.mtu,
      };
    });
}

/**
 * A secondary network gives its pods no default route: a Layer3 one routes its subnets through
 * the node's gateway (upstream's pod annotation for the secondary role: the cluster subnet via
 * the host subnet's .1, layer3_user_defined_network_controller_test.go dummyTestPod), Layer2 and
 * Localnet ones nothing (one segment).
 */
function secondaryRoutes(input: RenderInput, gateways: string[]): string[] {
  if (input.network.topology !== 'layer3') return [];
  return input.network.subnets.flatMap((s) => {
    const subnet = parseCidr(s.cidr);
    const via = subnet.ok ? gateways.find((g) => parseAddress(g)?.family === subnet.value.family) : undefined;
    return via ? [`${s.cidr} via ${via}`] : [];
  });
}
