/**
 * ServiceNetwork (upstream §3.5): the connect's group `cnc_svc_<cnc>` holding the ClusterIP load
 * balancers of every connected network (rendered by the networks, topology/services.ts),
 * attached to the zone's pod switches of each network.
 */
import type { DesiredRow } from '../nb/desired';
import { serviceGroupName } from './ids';
import type { ConnectInput } from './input';
import { podSwitches } from './networkNames';

/**
 * The group row, with the zone's pod switches of every connected network as its parents (a weak
 * reference set; the group has no external_ids and is owned through nb's ledger).
 */
export function serviceGroup(input: ConnectInput, localNodes: string[]): DesiredRow {
  const parents = input.networks.flatMap((n) =>
    podSwitches(n, localNodes).map((sw) => ({ table: 'Logical_Switch', identity: sw, column: 'load_balancer_group' })),
  );
  const balancers = [...new Set(input.networks.flatMap((n) => n.loadBalancers))].sort();
  return {
    table: 'Load_Balancer_Group',
    columns: { name: serviceGroupName(input.name), load_balancer: balancers },
    parents,
  };
}
