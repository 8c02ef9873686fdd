/**
 * Which of upstream's rows a topology's comparison covers: the rows of its networks (their
 * `k8s.ovn.org/network` external id, their controller as owner, or a name carrying the network's
 * prefix), the rows of the
 * network-connect controller, and every row those reference (Copp, meters, gateway chassis...),
 * the meters their Copp names, plus the static MAC bindings of their router ports and the address
 * sets their matches name. The default network's node switch, which
 * the harness makes (as upstream's tests do), is outside.
 */
import type { ObservedRow } from '../provider/nb/desired';
import { nbSchema } from '../provider/nb/generated/nb';
import { referencedTable } from '../provider/nb/references';
import { networkPrefix } from '../provider/runtime/cli';

const CONNECT_CONTROLLER = 'ovnkube-network-connect-controller';
const CONNECT_NAMES = /^(connect_router_|crtor-|rtocr-|cnc_svc_)/;

function seeds(row: ObservedRow, networks: string[]): boolean {
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

/** The uuid of every row in scope. */
export function upstreamScope(rows: readonly ObservedRow[], networks: string[], zone: string): Set<string> {
  const byId = new Map(rows.map((row) => [`${row.table}\0${row.uuid}`, row]));
  const of = (table: string) => rows.filter((r) => r.table === table);
  const inScope = new Set<string>();
  const visit = (row: ObservedRow) => {
    if (inScope.has(row.uuid) || (row.table === 'Logical_Switch' && row.columns.name === zone)) return;
    inScope.add(row.uuid);
    for (const [column, spec] of Object.entries(nbSchema.tables[row.table]?.columns ?? {})) {
      const target = referencedTable(spec.type);
      const value = row.columns[column];
      if (!target || value === undefined) continue;
      for (const ref of Array.isArray(value) ? value : [value]) {
        const found = byId.get(`${target}\0${String(ref)}`);
        if (found) visit(found);
      }
    }
  };
  for (const row of rows) if (seeds(row, networks)) visit(row);
  // Copp names its meters (a map of names, not references)
  const meters = new Set(
    of('Copp')
      .filter((r) => inScope.has(r.uuid))
      .flatMap((r) => Object.values((r.columns.meters ?? {}) as object)),
  );
  for (const row of of('Meter')) if (meters.has(row.columns.name)) visit(row);
  const ports = new Set(
    of('Logical_Router_Port')
      .filter((r) => inScope.has(r.uuid))
      .map((r) => r.columns.name),
  );
  for (const row of of('Static_MAC_Binding')) if (ports.has(row.columns.logical_port)) inScope.add(row.uuid);
  // address sets named in matches (`$a123...`, not references): the cluster's node IPs and
  // UDN-enabled services sets an advertised network's SNATs name
  const named = new Set(
    rows
      .filter((r) => inScope.has(r.uuid) && typeof r.columns.match === 'string')
      .flatMap((r) => (r.columns.match as string).match(/\$[A-Za-z0-9_.]+/g) ?? [])
      .map((token) => token.slice(1)),
  );
  for (const row of of('Address_Set')) if (named.has(String(row.columns.name))) inScope.add(row.uuid);
  return inScope;
}
