/**
 * A node's Open_vSwitch facts in one OVSDB transaction (four selects) over the SSH-tunnelled
 * db socket: the Open_vSwitch row's uuid and external_ids, bridges, ports (with VLAN tags) and
 * interfaces (types, MTUs, ofports), with uuids turned into names. Also the guarded write of the two
 * external_ids keys a bridge-mapping change touches.
 */
import type { OvsdbDatabase } from '../../ovsdb/client';
import type { PlainRow, PlainValue } from '../../ovsdb/codec';
import type { Condition, Mutation, Operation } from '../../ovsdb/notation';
import type { OvsFacts } from '../../uplink/facts';
import { bridgeMappingsKey, type MappingChange } from '../../uplink/mappings';

export const VSWITCH_DATABASE = 'Open_vSwitch';

const uuidOf = (v: PlainValue): string =>
  typeof v === 'object' && v !== null && 'uuid' in v ? (v as { uuid: string }).uuid : String(v);
const uuids = (v: PlainValue): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v.map((x) => uuidOf(x)) : [uuidOf(v)];
const textMap = (v: PlainValue): Record<string, string> =>
  Object.fromEntries(Object.entries((v ?? {}) as Record<string, unknown>).map(([k, x]) => [k, String(x)]));

export interface OvsRead {
  facts: OvsFacts;
  /** The Open_vSwitch row, for the guarded write. */
  rootUuid: string;
}

export async function readOvsFacts(db: OvsdbDatabase): Promise<OvsRead> {
  const select = (table: string, columns: string[]): Operation => ({
    op: 'select',
    table,
    where: [],
    columns: ['_uuid', ...columns],
  });
  const [root, bridges, ports, interfaces] = await db.transact(VSWITCH_DATABASE, [
    select('Open_vSwitch', ['external_ids']),
    select('Bridge', ['name', 'ports', 'external_ids']),
    select('Port', ['name', 'interfaces', 'tag']),
    select('Interface', ['name', 'type', 'mtu', 'ofport']),
  ]);
  const row = root!.rows?.[0];
  if (!row) throw new Error("the node's Open_vSwitch database has no Open_vSwitch row");
  const names = (rows: PlainRow[] | undefined) => new Map((rows ?? []).map((r) => [uuidOf(r._uuid), String(r.name)]));
  const portNames = names(ports!.rows);
  const interfaceNames = names(interfaces!.rows);
  const externalIds = textMap(row.external_ids);
  return {
    rootUuid: uuidOf(row._uuid),
    facts: {
      bridges: (bridges!.rows ?? []).map((b) => ({
        name: String(b.name),
        ports: uuids(b.ports).map((u) => portNames.get(u) ?? u),
        externalIds: textMap(b.external_ids),
      })),
      ports: (ports!.rows ?? []).map((p) => ({
        name: String(p.name),
        interfaces: uuids(p.interfaces).map((u) => interfaceNames.get(u) ?? u),
        ...(typeof p.tag === 'number' ? { tag: p.tag } : {}),
      })),
      interfaces: (interfaces!.rows ?? []).map((i) => ({
        name: String(i.name),
        type: String(i.type ?? ''),
        ...(typeof i.mtu === 'number' ? { mtu: i.mtu } : {}),
        ...(typeof i.ofport === 'number' && i.ofport > 0 ? { ofport: i.ofport } : {}),
      })),
      ...(externalIds[bridgeMappingsKey] !== undefined ? { bridgeMappings: externalIds[bridgeMappingsKey] } : {}),
      externalIds,
    },
  };
}

const wireMap = (map: Record<string, string>): ['map', [string, string][]] => [
  'map',
  Object.entries(map).sort(([a], [b]) => (a < b ? -1 : 1)),
];

/**
 * The two keys written in one transaction, guarded by `wait` on the external_ids we read: if
 * anyone changed them since (ovn-kubernetes, a person), the transaction fails and nothing is written.
 */
export function mappingOperations(
  rootUuid: string,
  before: Record<string, string>,
  change: MappingChange,
  ownedKey: string,
): Operation[] {
  const where: Condition[] = [['_uuid', '==', ['uuid', rootUuid]]];
  const next: Record<string, string> = {};
  if (change.mappings !== undefined) next[bridgeMappingsKey] = change.mappings;
  if (change.owned !== undefined) next[ownedKey] = change.owned;
  const insert: Mutation = ['external_ids', 'insert', wireMap(next)];
  return [
    {
      op: 'wait',
      table: 'Open_vSwitch',
      where,
      columns: ['external_ids'],
      until: '==',
      rows: [{ external_ids: wireMap(before) }],
      timeout: 0,
    },
    {
      op: 'mutate',
      table: 'Open_vSwitch',
      where,
      mutations: [['external_ids', 'delete', ['set', [bridgeMappingsKey, ownedKey]]]],
    },
    ...(Object.keys(next).length > 0
      ? [{ op: 'mutate' as const, table: 'Open_vSwitch', where, mutations: [insert] }]
      : []),
  ];
}

/** Set or remove (undefined) keys of external_ids that only this owner writes: delete them, insert the set ones. */
export function ownKeyOperations(rootUuid: string, keys: Record<string, string | undefined>): Operation[] {
  const where: Condition[] = [['_uuid', '==', ['uuid', rootUuid]]];
  const set: Record<string, string> = {};
  for (const [key, value] of Object.entries(keys)) if (value !== undefined) set[key] = value;
  const remove: Mutation = ['external_ids', 'delete', ['set', Object.keys(keys)]];
  const insert: Mutation = ['external_ids', 'insert', wireMap(set)];
  return [
    { op: 'mutate', table: 'Open_vSwitch', where, mutations: [remove] },
    ...(Object.keys(set).length > 0
      ? [{ op: 'mutate' as const, table: 'Open_vSwitch', where, mutations: [insert] }]
      : []),
  ];
}
