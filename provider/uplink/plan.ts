/**
 * The Uplink plan of a cluster: validation, selection and UplinkState names (offline), and with
 * each node's discovered facts the Resolved and GatewayReady conditions, the aggregates (Uplink
 * Ready, CUDN UplinksReady) and the host step of every node: its bridge-mapping change and, with
 * RouteAdvertisements, its VRF intents and bridge conflicts (a conflicting CUDN gets nothing new).
 * GatewayReady also waits for the gateway bridge's flows when the runtime looked at them.
 * A CUDN counts only on the nodes where it is active (active.ts). A node whose discovery failed
 * publishes no UplinkState and fails alone. Pure.
 */
import { compare, type Cluster } from '../model/cluster';
import { uplinksOf } from '../model/cudn';
import { dict } from '../model/dict';
import type { InventoryNode } from '../model/inventoryNode';
import type { Network } from '../model/network';
import type { Uplink } from '../model/uplink';
import { activeNodesOf, isActiveOn } from './active';
import { uplinkReady, uplinksReady } from './aggregate';
import { type Condition, condition, findCondition, type UplinkState } from './conditions';
import { bridgeMappingsKey, ownedMappingsKey, parseMappings, planMappings } from './mappings';
import { physicalNetworkOf } from './names';
import { withGateway } from './planGateway';
import type { NodeStep, UplinkObjectStatus, UplinkPlan, UplinkPlanInput } from './planTypes';
import type { UplinkProblem } from './problems';
import { overlappingState, stateObject, resolveUplinkState } from './resolve';
import { selectNodes, type UplinkSelection } from './select';
import { validateNetworkUplinks, validateUplink } from './validate';
import { conflictsOf, nodeVrfIntents, type ResolvedUse } from './vrfIntents';

const activeNodes = (cluster: Cluster) => cluster.inventory.nodes;

/** CUDNs that name an Uplink and passed validation, with that Uplink's name. */
function uplinkNetworks(cluster: Cluster, problems: UplinkProblem[]): { network: Network; uplink: string }[] {
  const byName = new Map((cluster.uplinks ?? []).map((u) => [u.name, u]));
  return cluster.networks.flatMap((network) => {
    const names = uplinksOf(network);
    if (names === undefined) return [];
    const found = validateNetworkUplinks(network, cluster.inventory, byName);
    problems.push(...found);
    return found.length === 0 ? [{ network, uplink: names[0]! }] : [];
  });
}

function requiredMtu(
  cluster: Cluster,
  users: { network: Network; uplink: string }[],
  uplink: string,
): { mtu: number; network: string } {
  const mine = users
    .filter((u) => u.uplink === uplink)
    .sort((a, b) => b.network.mtu - a.network.mtu || compare(a.network.name, b.network.name));
  return mine[0]
    ? { mtu: mine[0].network.mtu, network: mine[0].network.name }
    : { mtu: cluster.inventory.mtu, network: 'default (Inventory spec.mtu)' };
}

export function planUplinks(input: UplinkPlanInput): UplinkPlan {
  const { cluster } = input;
  const problems: UplinkProblem[] = [];
  const invalid = new Map<string, string>();
  for (const uplink of cluster.uplinks ?? []) {
    const found = validateUplink(uplink);
    problems.push(...found);
    const selector = found.find((p) => p.path.includes('nodeSelector'));
    if (selector) invalid.set(uplink.name, selector.message);
  }
  const users = uplinkNetworks(cluster, problems);
  const selections = new Map(
    (cluster.uplinks ?? [])
      .filter((u) => !invalid.has(u.name))
      .map((u) => [u.name, selectNodes(u, activeNodes(cluster))]),
  );
  const resolved = resolveStates(input, selections, users);
  const steps = nodeSteps(input, resolved, users);
  const states = withGateway(input, resolved, users, steps);
  // offline, the aggregates count every selected node as fine: only what needs no node shows
  const byName = new Map((input.discovery ? states : states.map(bestCase)).map((s) => [s.metadata.name, s]));
  const plan = {
    problems,
    uplinks: (cluster.uplinks ?? []).map((u) => uplinkObject(u, selections.get(u.name), byName, invalid.get(u.name))),
    uplinkStates: states,
    networks: networkConditions(cluster, problems, invalid, byName),
    nodes: steps,
  };
  return input.discovery ? plan : offlineOnly(plan);
}

/**
 * A selected node's offline state as if discovery had found it resolved and ready: the aggregates
 * then fail only for what needs no node (a spec refused, no node matching, a node two nodeConfigs
 * select, an active node none selects) and their messages count only those.
 */
function bestCase(state: UplinkState): UplinkState {
  if (state.status.hostInterfaceName === undefined) return state; // an overlapping node: no config chosen
  const conditions = [
    condition('Resolved', 'True', 'Resolved', ''),
    condition('GatewayReady', 'True', 'GatewayConfigured', ''),
  ];
  return { ...state, status: { ...state.status, conditions } };
}

/** Offline, a condition is shown only when it fails: a True one would claim what only discovery can tell. */
function offlineOnly(plan: UplinkPlan): UplinkPlan {
  const known = (conditions: Condition[]) => conditions.filter((c) => c.status === 'False');
  return {
    ...plan,
    uplinks: plan.uplinks.map((u) => ({ ...u, status: { ...u.status, conditions: known(u.status.conditions) } })),
    networks: dict(Object.entries(plan.networks).map(([name, n]) => [name, { ...n, conditions: known(n.conditions) }])),
  };
}

function resolveStates(
  input: UplinkPlanInput,
  selections: Map<string, UplinkSelection>,
  users: { network: Network; uplink: string }[],
): UplinkState[] {
  const { cluster, discovery } = input;
  const states: UplinkState[] = [];
  for (const [name, selection] of selections) {
    const uplink = cluster.uplinks!.find((u) => u.name === name)!;
    for (const node of activeNodes(cluster).filter(
      (n) => selection.selected.has(n.name) || selection.conflicts.includes(n.name),
    )) {
      const choice = {
        config: selection.selected.get(node.name),
        overlapping: selection.conflicts.includes(node.name),
      };
      const found = discovery?.get(node.name);
      if (!discovery && choice.overlapping) states.push(overlappingState(name, node.name));
      else if (!discovery)
        states.push(
          stateObject(name, node.name, {
            type: 'OVSBridge',
            ...(choice.config ? { hostInterfaceName: choice.config.hostInterfaceName } : {}),
            conditions: [],
          }),
        );
      else if (found?.ok) {
        states.push(
          resolveUplinkState({
            uplink: uplink.name,
            node: node.name,
            selection: choice,
            facts: found.value,
            families: cluster.inventory.ipFamilies,
            gatewayBridge: node.gatewayBridge,
            requiredMtu: requiredMtu(cluster, users, name),
          }),
        );
      }
    }
  }
  return states.sort((a, b) => compare(a.metadata.name, b.metadata.name));
}

/** The CUDNs active on `node` whose UplinkState there resolved, with its host interface and bridge. */
function resolvedUses(
  states: UplinkState[],
  users: { network: Network; uplink: string }[],
  node: InventoryNode,
): ResolvedUse[] {
  return users
    .filter(({ network }) => isActiveOn(node, network))
    .flatMap(({ network, uplink }) => {
      const state = states.find((s) => s.spec.uplinkName === uplink && s.spec.nodeName === node.name);
      if (findCondition(state?.status.conditions, 'Resolved')?.status !== 'True' || !state?.status.ovsBridge) return [];
      return [{ network, hostInterface: state.status.hostInterfaceName!, bridge: state.status.ovsBridge.name }];
    });
}

function nodeSteps(
  input: UplinkPlanInput,
  states: UplinkState[],
  users: { network: Network; uplink: string }[],
): NodeStep[] {
  return activeNodes(input.cluster)
    .map((node) => nodeStep(input, node, resolvedUses(states, users, node)))
    .sort((a, b) => compare(a.node, b.node));
}

function nodeStep(input: UplinkPlanInput, node: InventoryNode, uses: ResolvedUse[]): NodeStep {
  const intents = input.vrf ? nodeVrfIntents(node, uses, input.vrf) : undefined;
  const conflicts = intents ? conflictsOf(node.name, intents) : new Map<string, string>();
  const found = input.discovery?.get(node.name);
  const live = found?.ok ? parseMappings(found.value.ovs.externalIds[bridgeMappingsKey]) : new Map<string, string>();
  // nothing new while a conflict lasts: a conflicting CUDN keeps only a mapping already in place
  const desired = uses
    .filter((u) => !conflicts.has(u.network.objectName) || live.get(u.network.name) === u.bridge)
    .map((u) => ({ network: u.network.name, bridge: u.bridge }))
    .sort((a, b) => compare(a.network, b.network));
  const vrf = intents ? { vrf: intents, ...(conflicts.size > 0 ? { conflicts: dict(conflicts) } : {}) } : {};
  if (!found) return { node: node.name, desired, ...vrf };
  if (!found.ok) return { node: node.name, desired, error: { reason: found.reason, message: found.why } };
  const ids = found.value.ovs.externalIds;
  const change = planMappings(ids[bridgeMappingsKey], ids[ownedMappingsKey(input.owner)], desired);
  return { node: node.name, desired, ...vrf, ...(change ? { change } : {}) };
}

function uplinkObject(
  uplink: Uplink,
  selection: UplinkSelection | undefined,
  states: Map<string, UplinkState>,
  invalid: string | undefined,
): UplinkObjectStatus {
  const empty: UplinkSelection = { selected: new Map(), conflicts: [] };
  const chosen = selection ?? empty;
  return {
    apiVersion: 'k8s.ovn.org/v1alpha1',
    kind: 'Uplink',
    metadata: { name: uplink.name },
    spec: { nodeConfigs: uplink.nodeConfigs },
    status: {
      conditions: [uplinkReady(uplink, chosen, states, invalid)],
      selectedNodes: [...chosen.selected.keys()].sort(compare),
      overlappingNodes: chosen.conflicts,
    },
  };
}

/** Every CUDN the apiserver would have accepted gets UplinksReady (refusals included, as upstream reports them). */
function networkConditions(
  cluster: Cluster,
  problems: UplinkProblem[],
  invalid: Map<string, string>,
  states: Map<string, UplinkState>,
): UplinkPlan['networks'] {
  const uplinkObjects = new Map((cluster.uplinks ?? []).map((u) => [u.name, u]));
  const out: UplinkPlan['networks'] = dict();
  for (const network of cluster.networks) {
    const names = uplinksOf(network);
    if (names === undefined) continue;
    const accepted = !problems.some((p) => p.object === network.ref && p.reason === 'InvalidSpec');
    const ready = uplinksReady({
      cudn: network.objectName,
      uplinks: names,
      gatewayMode: cluster.inventory.gatewayMode,
      transport: network.transport,
      activeNodes: activeNodesOf(cluster, network),
      uplinkObjects,
      invalidUplinks: invalid,
      states,
    });
    out[network.name] = { uplinks: names, conditions: accepted ? [ready] : [] };
  }
  return out;
}

export { physicalNetworkOf };
export type { NodeDiscovery, NodeStep, UplinkObjectStatus, UplinkPlan, UplinkPlanInput } from './planTypes';
