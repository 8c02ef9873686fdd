/**
 * The zones of a cluster and every NB row each one holds: per-node layout, one zone per node
 * named after it (that node local, the others remote); central layout, one zone `central` with
 * every node local. A zone's rows: each accepted connect's rows, the ClusterIP load balancers
 * its ServiceNetwork groups name, and the shared Copp/meter rows they reference. Identities are
 * unique within a zone: a repeated shared row must be identical, anything else is a bug and throws.
 */
import type { ClusterAllocation } from '../alloc/cluster';
import type { Cluster } from '../model/cluster';
import { own } from '../model/dict';
import { zonesOf, type Zone } from '../model/zones';
import type { DesiredRow } from '../nb/desired';
import { identityOf } from '../topology/rows';
import { type Endpoints, loadBalancerRows } from '../topology/services';
import { renderSharedRows } from '../topology/shared';
import { connectInputs, connectNodes } from './fromCluster';
import type { ConnectInput, ConnectNode } from './input';
import { ConnectRenderError } from './links';
import { renderConnect } from './render';
import { renderConnectCached } from './renderCache';

export interface ZoneRows {
  zone: Zone;
  rows: DesiredRow[];
  notes: string[];
}

/** A zone as the plan document shows it: NB table -> rows as their columns objects. */
export type ZoneTables = Record<string, Record<string, unknown>[]>;

/** The cluster's zones over its allocated nodes, in node-id order. */
export function zoneSpecs(cluster: Cluster, nodes: ConnectNode[]): Zone[] {
  return zonesOf(
    cluster.inventory.zones,
    nodes.map((n) => n.name),
  );
}

/** The prepared inputs of a cluster: computed once, rendered for any number of zones. */
export interface ZonePlan {
  nodes: ConnectNode[];
  connects: ConnectInput[];
  /** Load balancers of networks connected with ServiceNetwork (rendered once per zone). */
  loadBalancers: DesiredRow[];
  zones: Zone[];
}

/**
 * `endpoints`: each network's endpoints (topology/services.ts), which back its load balancers
 * here as in the network's own rows; a network without any has empty backends.
 */
export function prepareZones(
  cluster: Cluster,
  allocation: ClusterAllocation,
  endpoints: Readonly<Record<string, Endpoints>> = {},
): ZonePlan {
  const nodes = connectNodes(cluster, allocation);
  const connects = connectInputs(cluster, allocation);
  const served = new Set(connects.filter((c) => c.serviceNetwork).flatMap((c) => c.networks.map((n) => n.name)));
  const loadBalancers = cluster.networks
    .filter((n) => served.has(n.name))
    .flatMap((n) =>
      loadBalancerRows(
        n.name,
        n.namespaces,
        cluster.inventory.services,
        own(endpoints, n.name) ?? {},
        cluster.inventory.masqueradeSubnets,
      ),
    );
  return { nodes, connects, loadBalancers, zones: zoneSpecs(cluster, nodes) };
}

/**
 * `counts`: as renderConnect's, the remote nodes' shared rows counted there, not listed. Listed,
 * each connect's rows come from the render memo when it rendered the same input before.
 */
export function renderZone(plan: ZonePlan, zone: Zone, counts?: Map<string, number>): ZoneRows {
  const out: ZoneRows = { zone, rows: [], notes: [] };
  for (const input of plan.connects) {
    const rendered = counts
      ? renderConnect(input, plan.nodes, zone, counts)
      : renderConnectCached(input, plan.nodes, zone);
    out.rows.push(...rendered.rows);
    out.notes.push(...rendered.notes);
  }
  if (out.rows.length === 0) return out;
  // The network rows of the zone go here once provider/topology/fromCluster.ts maps model +
  // alloc to its RenderInput: out.rows.push(...networkRowsOfZone(...)).
  // Connect rows are unique by construction (each id names its connect); only the rows several
  // owners reach (load balancers, shared Copp and meters) need merging.
  out.rows.push(...uniqueRows([...plan.loadBalancers, ...renderSharedRows()]));
  return out;
}

/** Drops exact repeats (a shared row reached twice); two different rows with one identity throw. */
export function uniqueRows(rows: DesiredRow[]): DesiredRow[] {
  const seen = new Map<string, DesiredRow>();
  const out: DesiredRow[] = [];
  for (const row of rows) {
    const key = `${row.table}\u0000${identityOf(row)}`;
    const before = seen.get(key);
    if (before === undefined) {
      seen.set(key, row);
      out.push(row);
    } else if (JSON.stringify(before) !== JSON.stringify(row)) {
      throw new ConnectRenderError(`two different ${row.table} rows have the identity ${identityOf(row)}`);
    }
  }
  return out;
}

/** Rows grouped by table (tables sorted), each row its columns object. */
export function zoneTables(rows: DesiredRow[]): ZoneTables {
  const tables: ZoneTables = {};
  for (const row of rows) (tables[row.table] ??= []).push(row.columns);
  const sorted: ZoneTables = {};
  for (const table of Object.keys(tables).sort()) sorted[table] = tables[table]!;
  return sorted;
}
