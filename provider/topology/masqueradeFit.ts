/**
 * Whether each primary network's masquerade addresses fit the Inventory's masquerade subnets.
 * Upstream derives network id N's gateway-router and management-port addresses as the
 * (10 + 2N - 1)th and (10 + 2N)th of each family's masquerade subnet and refuses one outside it
 * (pkg/generator/udn/masquerade_ips.go allocateMasqueradeIPs, GetUDNGatewayMasqueradeIPs): the
 * node is then not added to the network, with no gateway router, NATs or management port. Its
 * default /29 (169.254.169.0/29) holds no network's; deployments with user-defined networks give
 * 169.254.0.0/17 and fd69::/112. Refused before anything is written, naming the network, its id
 * and the addresses that do not fit. Pure.
 */
import type { ClusterAllocation } from '../alloc/cluster';
import { type Cidr, containsAddress, formatCidr, mustParseCidr, parseAddress } from '../model/cidr';
import type { Cluster } from '../model/cluster';
import { inUse } from '../model/cluster';
import { own } from '../model/dict';
import { type Problem, problem } from '../model/problem';
import { masqueradeIPs } from './addresses';

export function masqueradeRefusals(cluster: Cluster, allocation: Pick<ClusterAllocation, 'networkIds'>): Problem[] {
  const { inventory } = cluster;
  const subnets = inventory.masqueradeSubnets.map(mustParseCidr).filter((s) => inventory.ipFamilies.includes(s.family));
  const problems: Problem[] = [];
  for (const network of cluster.networks) {
    const id = own(allocation.networkIds, network.name);
    if (id === undefined || !inUse(network) || network.role !== 'Primary' || network.topology === 'Localnet') continue;
    const outside = subnets.flatMap((subnet) => outsideOf(subnet, id));
    if (outside.length === 0) continue;
    problems.push(
      problem(
        'MasqueradeSubnetTooSmall',
        'Inventory',
        'spec.masqueradeSubnets',
        `network ${network.name} (network id ${id}) needs masquerade addresses ${outside.join(', ')} for its gateway router and management port, outside spec.masqueradeSubnets [${inventory.masqueradeSubnets.join(', ')}]; upstream then fails to add every node to the network (GetUDNGatewayMasqueradeIPs: out of range): give subnets that hold them, such as 169.254.0.0/17 and fd69::/112`,
      ),
    );
  }
  return problems;
}

/** The network's gateway-router and management-port addresses of this family outside `subnet`. */
function outsideOf(subnet: Cidr, id: number): string[] {
  const { gatewayRouter, management } = masqueradeIPs(subnet, id);
  return [gatewayRouter, management]
    .filter((a) => !containsAddress(subnet, subnet.family, parseAddress(a.ip)!.value))
    .map((a) => `${a.ip} (not in ${formatCidr(subnet)})`);
}
