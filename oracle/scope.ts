/**
 * Which of upstream's rows a topology's comparison covers: the rows of its networks (their
 * `k8s.ovn.org/network` external id, their controller as owner, or a name carrying the network's
 * prefix), the rows of the
 * network-connect controller, and every row those reference (Copp, meters, gateway chassis...),
 * the meters their Copp names, plus the static MAC bindings of their router ports. The default network's node switch, which
 * the harness makes (as upstream's tests do), is outside.
 */
import type { IdRow } from '../provider/nb/natural';
import { nbSchema } from '../provider/nb/generated/nb';
import { referencedTable } from '../provider/nb/references';
import { networkPrefix } from '../provider/topology/names';

const CONNECT_CONTROLLER = 'ovnkube-network-connect-controller';
const CONNECT_NAMES = /^(connect_router_|crtor-|rtocr-|cnc_svc_)/;

type Tables = Record<string, IdRow[]>;

function seeds(table: string, row: IdRow, networks: string[]): boolean {
  const ids = (row.columns.external_ids ?? {}) as Record<string, string>;
  if (networks.includes(ids['k8s.ovn.org/network'] ?? '')) return true;
  const controller = ids['k8s.ovn.org/owner-controller'] ?? '';
  if (controller === CONNECT_CONTROLLER || networks.some((n) => controller === `${n}-network-controller`)) return true;
  // the advertised-network isolation rows (udn_isolation.go), global but there for our networks
  if (ids['k8s.ovn.org/owner-type'] === 'AdvertisedNetwork') return true;
  const name = typeof row.columns.name === 'string' ? row.columns.name : '';
  if (CONNECT_NAMES.test(name)) return true;
  return networks.some((n) => name.includes(networkPrefix(n)));
}

/** `table\0id` of every row in scope. */
export function upstreamScope(tables: Tables, networks: string[], zone: string): Set<string> {
  const byId = new Map<string, { table: string; row: IdRow }>();
  for (const [table, rows] of Object.entries(tables))
    for (const row of rows) byId.set(`${table}\0${row.id}`, { table, row });
  const inScope = new Set<string>();
  const visit = (table: string, row: IdRow) => {
    const at = `${table}\0${row.id}`;
    if (inScope.has(at) || (table === 'Logical_Switch' && row.columns.name === zone)) return;
    inScope.add(at);
    for (const [column, spec] of Object.entries(nbSchema.tables[table]?.columns ?? {})) {
      const target = referencedTable(spec.type);
      const value = row.columns[column];
      if (!target || value === undefined) continue;
      for (const ref of Array.isArray(value) ? value : [value]) {
        const found = byId.get(`${target}\0${String(ref)}`);
        if (found) visit(found.table, found.row);
      }
    }
  };
  for (const [table, rows] of Object.entries(tables))
    for (const row of rows) if (seeds(table, row, networks)) visit(table, row);
  // Copp names its meters (a map of names, not references)
  const meters = new Set(
    (tables.Copp ?? [])
      .filter((r) => inScope.has(`Copp\0${r.id}`))
      .flatMap((r) => Object.values((r.columns.meters ?? {}) as object)),
  );
  for (const row of tables.Meter ?? []) if (meters.has(row.columns.name)) visit('Meter', row);
  const ports = new Set(
    (tables.Logical_Router_Port ?? [])
      .filter((r) => inScope.has(`Logical_Router_Port\0${r.id}`))
      .map((r) => r.columns.name),
  );
  for (const row of tables.Static_MAC_Binding ?? [])
    if (ports.has(row.columns.logical_port)) inScope.add(`Static_MAC_Binding\0${row.id}`);
  return inScope;
}
