/**
 * The VRF part of an UplinkState's inputs (OKEP-6019 with RouteAdvertisements): the
 * RouteAdvertisements objects as a user writes them and the network ids ClusterAllocations
 * assigned. Check parses them (failures name `routeAdvertisements[i]…` or `networkIds.<name>`)
 * and narrows both to what concerns this resource: the RouteAdvertisements that advertise one of
 * its CUDNs on its node, and the ids of its CUDNs, so an unrelated change does not touch it.
 * Absent `routeAdvertisements` means no VRF handling at all (bridge mappings only). Pure.
 */
import type { Cluster } from '../../model/cluster';
import { dict, own } from '../../model/dict';
import { loadDocuments } from '../../model/load';
import type { Problem } from '../../model/problem';
import { parseRouteAdvertisementsDocuments, type RouteAdvertisements } from '../../model/routeAdvertisements';
import { advertisesCudn } from '../../uplink/vrfDomain';
import type { UplinkVrfInput } from '../../uplink/vrfIntents';
import { type CheckFailure, checkFailure, type Props } from './protocol';
import type { YamlObject } from './uplinkInput';

export interface UplinkVrfProps {
  routeAdvertisements: YamlObject[];
  networkIds: Record<string, number>;
  /** This node's subnets of its advertised Layer3 networks (their routed flows); absent when none. */
  hostSubnets?: Record<string, Record<string, string[]>>;
}

type Parsed = { ok: true; vrf: UplinkVrfInput; props: UplinkVrfProps } | { ok: false; failures: CheckFailure[] };

function parseAdvertisements(objects: YamlObject[]): { ras: RouteAdvertisements[]; failures: CheckFailure[] } {
  const loaded = loadDocuments(JSON.stringify(objects));
  const problems: Problem[] = [...loaded.problems];
  // Objects the CRD refuses are not parsed: their problems would only repeat the schema's.
  const ras = problems.length > 0 ? [] : parseRouteAdvertisementsDocuments(loaded.documents, problems);
  const indexOf = new Map(loaded.documents.map((d) => [d.ref, d.index]));
  const failures = problems.map((p) => {
    const index = p.object === undefined ? undefined : indexOf.get(p.object);
    return checkFailure(
      `routeAdvertisements${index === undefined ? '' : `[${index}]`}`,
      p.reason,
      `${p.path}: ${p.message}`,
    );
  });
  return { ras, failures };
}

function idFailures(ids: unknown): CheckFailure[] {
  if (typeof ids !== 'object' || ids === null || Array.isArray(ids))
    return [
      checkFailure(
        'networkIds',
        'InvalidField',
        `networkIds must map network names to ids, not ${JSON.stringify(ids)}`,
      ),
    ];
  return Object.entries(ids)
    .filter(([, id]) => !Number.isInteger(id) || (id as number) < 0)
    .map(([name, id]) =>
      checkFailure(
        `networkIds.${name}`,
        'InvalidField',
        `network id ${JSON.stringify(id)} is not a non-negative integer`,
      ),
    );
}

/** The node's labels and this resource's CUDNs, as the domain rule reads them. */
function cudnsOf(cluster: Cluster, networkIds: Record<string, number>) {
  return cluster.networks
    .filter((n) => networkIds[n.name] !== undefined)
    .map((n) => ({ name: n.objectName, networkId: networkIds[n.name]!, labels: n.labels }));
}

/**
 * Parse and narrow the VRF inputs against the resource's cluster (its one node and its CUDNs, and
 * their host subnets there); undefined when the resource was given no RouteAdvertisements.
 */
export function uplinkVrfOf(props: Props, cluster: Cluster): Parsed | undefined {
  if (props.routeAdvertisements === undefined) return undefined;
  if (!Array.isArray(props.routeAdvertisements))
    return {
      ok: false,
      failures: [
        checkFailure(
          'routeAdvertisements',
          'InvalidField',
          `routeAdvertisements must be a list of RouteAdvertisements objects, not ${JSON.stringify(props.routeAdvertisements)}`,
        ),
      ],
    };
  const given = props.routeAdvertisements as YamlObject[];
  const parsed = parseAdvertisements(given);
  const failures = [...parsed.failures, ...idFailures(props.networkIds ?? {})];
  if (failures.length > 0) return { ok: false, failures };
  const allIds = (props.networkIds ?? {}) as Record<string, number>;
  const networkIds = dict(
    cluster.networks.filter((n) => own(allIds, n.name) !== undefined).map((n) => [n.name, own(allIds, n.name)!]),
  );
  const labels = cluster.inventory.nodes.find((n) => n.name === props.node)?.labels ?? {};
  const cudns = cudnsOf(cluster, networkIds);
  const ras = parsed.ras.filter((ra) => cudns.some((c) => advertisesCudn(ra, c, labels)));
  const names = new Set(ras.map((ra) => ra.name));
  const routeAdvertisements = given.filter((o) => names.has(String(o.metadata?.name)));
  const hostSubnets = nodeHostSubnets(props.hostSubnets, cluster, networkIds, String(props.node));
  const subnets = hostSubnets ? { hostSubnets } : {};
  return {
    ok: true,
    vrf: { routeAdvertisements: ras, networkIds, ...subnets },
    props: { routeAdvertisements, networkIds, ...subnets },
  };
}

/**
 * The allocation's host subnets narrowed to this node and its Layer3 networks: an advertised
 * Layer3 network's routed flows match its node subnet (flowFacts.ts), and another node's or
 * network's change leaves this resource alone. Undefined when there are none.
 */
function nodeHostSubnets(
  given: unknown,
  cluster: Cluster,
  networkIds: Record<string, number>,
  node: string,
): Record<string, Record<string, string[]>> | undefined {
  if (typeof given !== 'object' || given === null) return undefined;
  const all = given as Record<string, Record<string, string[]> | undefined>;
  const mine = cluster.networks
    .filter((n) => n.topology === 'Layer3' && own(networkIds, n.name) !== undefined)
    .flatMap((n): [string, Record<string, string[]>][] => {
      const subnets = own(all, n.name)?.[node];
      return subnets ? [[n.name, dict([[node, subnets]])]] : [];
    });
  return mine.length > 0 ? dict(mine) : undefined;
}
