/**
 * Whether each primary network's join subnets hold the gateway-router address of every node it
 * is active on. Upstream gives node id N's gateway router the join subnet's Nth address
 * (util.GetGWRouterIPs via GenerateIPFromOffset) and refuses one outside the subnet ("generated
 * ip ... from the idx N is out of range in the network ..."): that node is then left without the
 * network's gateway router, and the other zones without their routes to it. A join subnet this
 * small (a /30 holds node ids 0-3) is refused before anything is written, naming the network's
 * field, the node and its id. Pure.
 */
import type { ClusterAllocation } from '../alloc/cluster';
import { isActiveOn } from '../model/active';
import { addressBits, mustParseCidr } from '../model/cidr';
import type { Cluster } from '../model/cluster';
import { inUse } from '../model/cluster';
import { own } from '../model/dict';
import { configPath } from '../model/networkRules';
import { type Problem, problem } from '../model/problem';

export function joinSubnetRefusals(cluster: Cluster, allocation: Pick<ClusterAllocation, 'nodeIds'>): Problem[] {
  const problems: Problem[] = [];
  for (const network of cluster.networks) {
    if (!inUse(network) || network.role !== 'Primary' || network.topology === 'Localnet') continue;
    const nodes = cluster.inventory.nodes.filter((n) => isActiveOn(n, network));
    network.joinSubnets.forEach((text, i) => {
      const join = mustParseCidr(text);
      const size = 2n ** BigInt(addressBits(join.family) - join.prefix);
      const outside = nodes.filter((n) => BigInt(own(allocation.nodeIds, n.name) ?? 0) >= size);
      if (outside.length === 0) return;
      const named = outside.map((n) => `${n.name} (node id ${own(allocation.nodeIds, n.name)})`).join(', ');
      problems.push(
        problem(
          'JoinSubnetTooSmall',
          network.ref,
          `${configPath(network)}joinSubnets[${i}]`,
          `join subnet "${text}" of network ${network.name} holds node ids below ${size} only; ${named} would get no gateway-router address from it, and upstream leaves such a node without the network's gateway router (GetGWRouterIPs: out of range): give a join subnet with room for every node id`,
        ),
      );
    });
  }
  return problems;
}
