/**
 * Rebuilding an owner's ledger (ledger.ts) from its owner markers, when the ledger key is lost or
 * unreadable: a row of a ledger table is the owner's when one of the owner's marked rows implies
 * it and no other owner's ledger lists it. In OVN_Northbound a Static_MAC_Binding is implied by
 * the marked Logical_Router_Port its `logical_port` names, and a Load_Balancer_Group by a marked
 * Logical_Switch or Logical_Router holding it in `load_balancer_group`. Destroy works from this
 * alone; `ovnk repair` writes it back.
 */
import type { OvsdbDatabase } from '../ovsdb/client';
import { isUuid } from '../ovsdb/codec';
import type { Operation } from '../ovsdb/notation';
import { rowIdentity } from './desired';
import { LEDGER_PREFIX, ledgerHome, ledgerKey, ledgerSelect, parseLedger, type Ledger } from './ledger';
import { OWNER_KEY } from './ownership';

type Row = Record<string, unknown>;

const NB = 'OVN_Northbound';
const holderTables = ['Logical_Switch', 'Logical_Router'];

const marked = (table: string, owner: string, columns: string[]): Operation => ({
  op: 'select',
  table,
  where: [['external_ids', 'includes', ['map', [[OWNER_KEY, owner]]]]],
  columns,
});
const all = (table: string, columns: string[]): Operation => ({ op: 'select', table, where: [], columns });

/** Identities other owners' readable ledgers list, by `table/identity` (an unreadable one lists nothing). */
function listedByOthers(map: Record<string, string>, owner: string): Set<string> {
  const listed = new Set<string>();
  for (const [key, text] of Object.entries(map)) {
    if (!key.startsWith(LEDGER_PREFIX) || key === ledgerKey(owner)) continue;
    let ledger: Ledger;
    try {
      ledger = parseLedger(text, key);
    } catch {
      continue;
    }
    for (const [table, identities] of Object.entries(ledger)) for (const id of identities) listed.add(`${table}/${id}`);
  }
  return listed;
}

const uuidsOf = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).flatMap((v) => (isUuid(v) ? [v.uuid] : []));

/** The ledger `owner`'s marked rows imply (see the header); empty for databases without these tables. */
export async function recoverLedger(db: OvsdbDatabase, database: string, owner: string): Promise<Ledger> {
  const home = ledgerHome(database);
  if (database !== NB || home === undefined) return {};
  const results = await db.transact(NB, [
    marked('Logical_Router_Port', owner, ['name']),
    ...holderTables.map((t) => marked(t, owner, ['load_balancer_group'])),
    all('Static_MAC_Binding', ['logical_port', 'ip']),
    all('Load_Balancer_Group', ['_uuid', 'name']),
    ledgerSelect(home),
  ]);
  const rows = (i: number): Row[] => results[i]!.rows ?? [];
  const ports = new Set(rows(0).map((r) => r.name as string));
  const groups = new Set([...rows(1), ...rows(2)].flatMap((r) => uuidsOf(r.load_balancer_group)));
  const others = listedByOthers((rows(5)[0]?.[home.column] ?? {}) as Record<string, string>, owner);
  const ours = (table: string, row: Row) => {
    const id = rowIdentity(table, row);
    return id !== undefined && !others.has(`${table}/${id}`) ? [id] : [];
  };
  const ledger: Ledger = {
    Static_MAC_Binding: rows(3)
      .filter((r) => ports.has(r.logical_port as string))
      .flatMap((r) => ours('Static_MAC_Binding', r)),
    Load_Balancer_Group: rows(4)
      .filter((r) => groups.has((r._uuid as { uuid: string }).uuid))
      .flatMap((r) => ours('Load_Balancer_Group', r)),
  };
  return Object.fromEntries(Object.entries(ledger).filter(([, ids]) => ids.length > 0));
}

/** Whether the stored ledger text cannot be read (absent is readable: an empty ledger). */
export function unreadableLedger(text: string | undefined): boolean {
  if (text === undefined) return false;
  try {
    parseLedger(text, 'ledger');
    return false;
  } catch {
    return true;
  }
}
