/** The `ovnk plan -o text` rendering: the allocation table a person reads first, then every problem. */
import type { Cluster } from '../../provider/model/cluster';
import type { ClusterAllocation, DesiredRow } from '../../provider/runtime';
import type { Problem } from '../../provider/model/problem';

/** A zone as the text shows it: its name, its rows and the notes on rows left out. */
export interface ZoneSummary {
  zone: { name: string };
  rows: DesiredRow[];
  notes: string[];
}

/** `problems`: every refusal of the plan (default: the allocation's and the connects'). */
export function planText(
  cluster: Cluster,
  allocation: ClusterAllocation,
  zones: ZoneSummary[] = [],
  problems: Problem[] = [...allocation.problems, ...Object.values(allocation.connects).flatMap((c) => c.problems)],
): string {
  const lines: string[] = ['Networks'];
  for (const n of cluster.networks) {
    const id = allocation.networkIds[n.name];
    const keys = allocation.datapathKeys.networks[n.name];
    const subnets = n.subnets.map((s) => (s.hostSubnet ? `${s.cidr} (/${s.hostSubnet} per node)` : s.cidr)).join(', ');
    const key = keys ? `  keys ${keys.transitSwitch}${keys.transitRouter ? `/${keys.transitRouter}` : ''}` : '';
    lines.push(
      `  ${n.name}  id ${id ?? '-'}  ${n.topology} ${n.role}  ${subnets}${key}${id === undefined ? '  (not in use: no namespace)' : ''}`,
    );
  }
  lines.push('Connects');
  for (const [name, c] of Object.entries(allocation.connects)) {
    lines.push(`  ${name}  ${c.accepted ? 'accepted' : 'REFUSED'}  router key ${c.tunnelKey ?? '-'}`);
    for (const [owner, a] of Object.entries(c.networks)) {
      const block = a.blocks ? `  (block ${Object.values(a.blocks).join(', ')})` : '';
      lines.push(`    ${owner}  ${a.network ?? '?'}  ${Object.values(a.subnets).join(', ')}${block}`);
    }
    if (c.replaced) lines.push(`    replace: ${c.replaced.message} (apply needs --replace)`);
  }
  lines.push('Nodes');
  for (const [node, id] of Object.entries(allocation.nodeIds)) {
    const subnets = Object.entries(allocation.hostSubnets).map(
      ([net, byNode]) => `${net} ${(byNode[node] ?? []).join(', ')}`,
    );
    lines.push(`  ${node}  id ${id}${subnets.length ? `  ${subnets.join('; ')}` : ''}`);
  }
  lines.push(...zoneLines(zones));
  if (problems.length > 0) lines.push(`Problems (${problems.length}, nothing may be applied)`);
  for (const p of problems) lines.push(`  ! ${p.reason}: ${p.path}: ${p.message}`);
  return lines.join('\n');
}

/** Row counts per zone and NB table, then the notes on rows left out. */
function zoneLines(zones: ZoneSummary[]): string[] {
  const lines = zones.length > 0 ? ['Zones (NB rows per table)'] : [];
  for (const z of zones) {
    const counts = new Map<string, number>();
    for (const row of z.rows) counts.set(row.table, (counts.get(row.table) ?? 0) + 1);
    const tables = [...counts.keys()].sort().map((t) => `${t} ${counts.get(t)}`);
    lines.push(`  ${z.zone.name}  ${z.rows.length} rows${tables.length ? `: ${tables.join(', ')}` : ''}`);
    for (const note of z.notes) lines.push(`    note: ${note}`);
  }
  return lines;
}
