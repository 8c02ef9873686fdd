/**
 * The `ovnk plan -o text` rendering: the allocation tables a person reads first (networks,
 * connects and their slices, nodes in natural order with their host subnets, zones), each with a
 * header as kubectl prints its tables, then every problem.
 */
import type { Cluster } from '../../provider/model/cluster';
import type { Problem } from '../../provider/model/problem';
import type { ClusterAllocation, DesiredRow } from '../../provider/runtime/cli';
import { naturalCompare, table } from '../table';

/** A zone as the text shows it: its name, its rows (or their count per table) and the notes on rows left out. */
export interface ZoneSummary {
  zone: { name: string };
  rows: DesiredRow[];
  /** The rows per table, when known without reading `rows` (a large plan's zones render rows when read). */
  tableCounts?: ReadonlyMap<string, number>;
  notes: string[];
}

/** `problems`: every refusal of the plan (default: the allocation's and the connects'). */
export function planText(
  cluster: Cluster,
  allocation: ClusterAllocation,
  zones: ZoneSummary[] = [],
  problems: Problem[] = [...allocation.problems, ...Object.values(allocation.connects).flatMap((c) => c.problems)],
): string {
  const sections = [networkLines(cluster, allocation), ...connectLines(allocation), nodeLines(allocation)];
  if (zones.length > 0) sections.push(zoneLines(zones));
  const lines = sections.flatMap((s, i) => (i === 0 ? s : ['', ...s]));
  if (problems.length > 0) lines.push('', `Problems (${problems.length}, nothing may be applied)`);
  for (const p of problems) lines.push(`  ! ${p.reason}: ${p.path}: ${p.message}`);
  return lines.join('\n');
}

function networkLines(cluster: Cluster, allocation: ClusterAllocation): string[] {
  const rows = cluster.networks.map((n) => {
    const id = allocation.networkIds[n.name];
    const keys = allocation.datapathKeys.networks[n.name];
    const subnets = n.subnets.map((s) => (s.hostSubnet ? `${s.cidr} (/${s.hostSubnet} per node)` : s.cidr)).join(', ');
    const key = keys ? `${keys.transitSwitch}${keys.transitRouter ? `/${keys.transitRouter}` : ''}` : '-';
    const note = id === undefined ? 'not in use: no namespace' : '';
    return [n.name, String(id ?? '-'), n.topology, n.role, subnets, key, note];
  });
  return table(['network', 'id', 'topology', 'role', 'subnets', 'keys', 'note'], rows);
}

/** The connects, then their networks' slices (and a replacement apply would need --replace for). */
function connectLines(allocation: ClusterAllocation): string[][] {
  const connects = Object.entries(allocation.connects);
  if (connects.length === 0) return [];
  const status = table(
    ['connect', 'status', 'router key'],
    connects.map(([name, c]) => [name, connectStatus(c), String(c.tunnelKey ?? '-')]),
  );
  const slices = connects.flatMap(([name, c]) =>
    Object.entries(c.networks).map(([owner, a]) => [
      name,
      owner,
      a.network ?? '?',
      Object.values(a.subnets).join(', '),
      a.blocks ? Object.values(a.blocks).join(', ') : '',
    ]),
  );
  const replaced = connects.flatMap(([, c]) =>
    c.replaced ? [`replace: ${c.replaced.message} (apply needs --replace)`] : [],
  );
  return [status, [...table(['connect', 'owner', 'network', 'subnets', 'layer2 block'], slices), ...replaced]];
}

/** One row per node and network with host subnets (a node's id and name only on its first row). */
function nodeLines(allocation: ClusterAllocation): string[] {
  const nodes = Object.entries(allocation.nodeIds).sort(([a], [b]) => naturalCompare(a, b));
  const rows = nodes.flatMap(([node, id]) => {
    const subnets = Object.entries(allocation.hostSubnets).filter(([, byNode]) => byNode[node]?.length);
    if (subnets.length === 0) return [[node, String(id), '-', '']];
    return subnets.map(([net, byNode], i) => [
      i === 0 ? node : '',
      i === 0 ? String(id) : '',
      net,
      byNode[node]!.join(', '),
    ]);
  });
  return table(['node', 'id', 'network', 'host subnets'], rows);
}

/** Row counts per zone and NB table, then the notes on rows left out. */
function zoneLines(zones: ZoneSummary[]): string[] {
  const rows = [...zones]
    .sort((a, b) => naturalCompare(a.zone.name, b.zone.name))
    .map((z) => {
      const counts = z.tableCounts ?? tableCounts(z.rows);
      const tables = [...counts.keys()].sort().map((t) => `${t} ${counts.get(t)}`);
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return { cells: [z.zone.name, String(total), tables.join(', ')], notes: z.notes };
    });
  const [header, ...lines] = table(
    ['zone', 'nb rows', 'per table'],
    rows.map((r) => r.cells),
  );
  return [header!, ...lines.flatMap((l, i) => [l, ...rows[i]!.notes.map((n) => `  note: ${n}`)])];
}

function tableCounts(rows: readonly DesiredRow[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.table, (counts.get(row.table) ?? 0) + 1);
  return counts;
}

/** `accepted`, `REFUSED`, or accepted with the reasons of its warnings (`accepted, InsufficientNetworks`). */
function connectStatus(c: ClusterAllocation['connects'][string]): string {
  if (!c.accepted) return 'REFUSED';
  return ['accepted', ...(c.warnings ?? []).map((w) => w.reason)].join(', ');
}
