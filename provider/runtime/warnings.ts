/**
 * What a plan says without refusing it, beyond the cluster's own warnings (model/warnings.ts):
 * findings of connect validation upstream accepts (a connect selecting fewer than two networks),
 * and each Uplink CUDN's node whose UplinkState is missing or not resolved: upstream writes none
 * of that node's gateway for the network then, and reports it only afterwards (the node's error
 * "waiting for UplinkState ..."), so the plan says so at preview. The CLI prints them with the
 * others (`Warning:` on stderr, `warnings` in the document), the Pulumi components log them;
 * nothing here stops an apply.
 */
import type { ClusterAllocation } from '../alloc/cluster';
import type { Cluster } from '../model/cluster';
import { own } from '../model/dict';
import { warning, type Warning } from '../model/warnings';
import type { ZoneRenderInputs } from '../topology/fromCluster';
import type { UplinkState } from '../uplink/conditions';
import { gatewayWait } from '../uplink/routerGateway';

export function planWarnings(
  allocation: ClusterAllocation,
  cluster: Cluster,
  zones: readonly ZoneRenderInputs[],
  uplinkStates: readonly UplinkState[],
): Warning[] {
  return [
    ...Object.values(allocation.connects).flatMap((c) => c.warnings ?? []),
    ...uplinkGatewayWarnings(cluster, zones, uplinkStates),
  ];
}

/** One warning per Uplink CUDN and local node the network is active on that has no gateway for it. */
function uplinkGatewayWarnings(
  cluster: Cluster,
  zones: readonly ZoneRenderInputs[],
  states: readonly UplinkState[],
): Warning[] {
  const stateOf = new Map(states.map((s) => [`${s.spec.uplinkName}\u0000${s.spec.nodeName}`, s]));
  const refOf = new Map(cluster.networks.map((n) => [n.name, n.ref]));
  return zones.flatMap(({ zone, inputs }) =>
    inputs.flatMap(({ network }) => {
      const { uplink, activeNodes } = network;
      if (!uplink) return [];
      const waiting = zone.localNodes.filter(
        (node) => (activeNodes?.includes(node) ?? true) && own(uplink.gateways, node) === undefined,
      );
      const wait = (node: string) => stateOf.get(`${uplink.name}\u0000${node}`);
      const ref = refOf.get(network.name) ?? network.name;
      return waiting.flatMap((node) => uplinkWaitWarning(ref, network.name, uplink.name, node, wait(node)) ?? []);
    }),
  );
}

/**
 * The warning for network `name` (object `ref`) of Uplink `uplink` on `node`, given the node's
 * state, or undefined when the state gives the gateway (also the Pulumi components': pulumi/uplinkWarnings.ts).
 */
export function uplinkWaitWarning(
  ref: string,
  name: string,
  uplink: string,
  node: string,
  state: UplinkState | undefined,
): Warning | undefined {
  const wait = gatewayWait(uplink, node, state);
  if (!wait) return undefined;
  const message =
    `node ${node} gets no gateway for network ${name} on Uplink ${uplink} until its UplinkState ` +
    `resolves (upstream: ${wait.upstream}); the next apply after it resolves adds it whole`;
  return warning(wait.reason, ref, 'spec.uplinks', message);
}
