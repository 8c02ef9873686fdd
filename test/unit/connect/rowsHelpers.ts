/** Helpers for the connect row tests: plan a YAML text and render its zones; find rows by identity. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { prepareZones, renderZone, type ZoneRows } from '../../../provider/connect/zones';
import type { DesiredRow } from '../../../provider/nb/desired';
import { allocateTopology } from '../../../provider/runtime/plan';
import { identityOf } from '../../../provider/topology/rows';

export const fixtures = join(__dirname, '..', '..', 'fixtures');

export function fixtureText(name: string): string {
  return readFileSync(join(fixtures, name), 'utf8');
}

/** The fixture with a chassis id on every Inventory node (per-node remote ports need them). */
export function withChassis(text: string): string {
  return parseAllDocuments(text)
    .map((doc) => {
      const body = doc.toJS() as { kind: string; spec: { nodes?: { name: string; chassisId?: string }[] } };
      if (body.kind === 'Inventory') for (const n of body.spec.nodes ?? []) n.chassisId = `chassis-${n.name}`;
      return stringify(body);
    })
    .join('---\n');
}

export function zonesOf(text: string): Map<string, ZoneRows> {
  const outcome = allocateTopology(text);
  if (!outcome.ok) throw new Error(`fixture unusable: ${JSON.stringify(outcome.problems)}`);
  const problems = Object.values(outcome.allocated.allocation.connects).flatMap((c) => c.problems);
  if (problems.length > 0) throw new Error(`fixture refused: ${JSON.stringify(problems)}`);
  const prepared = prepareZones(outcome.allocated.cluster, outcome.allocated.allocation);
  return new Map(prepared.zones.map((z) => [z.name, renderZone(prepared, z)]));
}

export function rowsOf(zone: ZoneRows, table: string): DesiredRow[] {
  return zone.rows.filter((r) => r.table === table);
}

export function byIdentity(zone: ZoneRows, table: string, identity: string): DesiredRow {
  const found = zone.rows.filter((r) => r.table === table && identityOf(r) === identity);
  if (found.length !== 1)
    throw new Error(
      `${found.length} ${table} rows named ${identity}; have ${rowsOf(zone, table).map(identityOf).join(', ')}`,
    );
  return found[0]!;
}

export function externalIds(row: DesiredRow): Record<string, string> {
  return row.columns.external_ids as Record<string, string>;
}
