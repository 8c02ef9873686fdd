/**
 * A Northbound's whole content for comparing two servers: every row but NB_Global's as one line
 * `<Table>:<label> <columns JSON>`, sorted, where the label is the row's name (else its
 * `ovnk.io/key`, upstream id, or index columns), references are replaced by the referenced row's
 * label and sets and maps are sorted, so two servers holding the same rows give the same lines
 * whatever their UUIDs.
 */
import type { OvsdbClient } from '../../provider/ovsdb/client';
import type { Operation } from '../../provider/ovsdb/notation';

const NB = 'OVN_Northbound';

type Row = Record<string, unknown>;

/** Every row but NB_Global's (and the `except` tables'), references by the referenced row's label, as sorted lines. */
export async function dump(client: OvsdbClient, except: readonly string[] = []): Promise<string[]> {
  const schema = await client.getSchema(NB);
  const tables = Object.keys(schema.tables).filter((t) => t !== 'NB_Global');
  const results = await client.transact(
    NB,
    tables.map((table): Operation => ({ op: 'select', table, where: [] })),
  );
  const label = new Map<string, string>();
  results.forEach((r, i) =>
    (r.rows ?? []).forEach((row: Row) => {
      const ids = (row.external_ids ?? {}) as Record<string, string>;
      const name = row.name ?? ids['ovnk.io/key'] ?? ids['k8s.ovn.org/id'] ?? `${row.logical_port}/${row.ip}`;
      label.set((row._uuid as { uuid: string }).uuid, `${tables[i]}:${String(name)}`);
    }),
  );
  // references by the referenced row's label; sets (arrays) and maps in a fixed order
  const plain = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value), (_, v) => {
      if (v && typeof v === 'object' && 'uuid' in v) return label.get(v.uuid) ?? v.uuid;
      if (Array.isArray(v)) return [...v].sort();
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).sort());
      return v;
    });
  return results
    .flatMap((r) =>
      (r.rows ?? []).map((row: Row) => {
        const { _uuid, _version, ...columns } = row;
        void _version;
        return `${label.get((_uuid as { uuid: string }).uuid)} ${JSON.stringify(plain(columns))}`;
      }),
    )
    .filter((line) => !except.includes(line.slice(0, line.indexOf(':'))))
    .sort();
}
