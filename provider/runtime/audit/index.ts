/**
 * Audit: whether each zone's Northbound holds what a file's plan implies, whoever wrote the rows
 * (ovn-kubernetes, a person, us), compared by upstream's identities (nb/naturalKeys.ts,
 * nb/rowComparison.ts). Read-only: selects only, nothing written, no owner marker needed. Steps:
 * read each zone's rows of the audited networks (read.ts), adopt the allocations they show where
 * the Inventory pins none (adoptRows.ts), plan with them, read the planned rows the tags did not
 * find, and compare per zone. Rows of networks the file does not list are out of scope.
 */
import { emptyState } from '../../alloc/state';
import type { Cluster } from '../../model/cluster';
import type { Problem } from '../../model/problem';
import type { ObservedRow } from '../../nb/desired';
import { naturalRows, plannedAsObserved } from '../../nb/naturalKeys';
import { compareRows, type Comparison } from '../../nb/rowComparison';
import type { OvsdbDatabase } from '../../ovsdb/client';
import type { DatabaseSchema } from '../../ovsdb/schema';
import { networkControllerName } from '../../topology/names';
import { adaptToServer } from '../compat';
import { NB_DATABASE } from '../connections';
import { eachZone, type ZoneOutcome } from '../eachZone';
import { planTopology, type ZonePlan } from '../plan';
import { runtimeStateVersion, type RuntimeState } from '../state';
import { allocationsInRows, type RowAllocations, withRowAllocations } from './adoptRows';
import { type AuditScope, readScoped } from './read';

export type { RowAllocations } from './adoptRows';
export type { ColumnDifference, Comparison, RowDifference, RowOutline } from '../../nb/rowComparison';

export interface AuditZone {
  name: string;
  db: OvsdbDatabase;
}

export interface ZoneAudit {
  endpoint: string;
  comparison: Comparison;
  /** Rows the plan expects in this zone, and rows of the audited networks read there. */
  expected: number;
  read: number;
  /** Select operations sent to this zone. */
  selects: number;
  /** What was left out for this server (compat.ts), in words. */
  notes: string[];
}

export interface AuditResult {
  zones: ZoneOutcome<ZoneAudit>[];
  /** What the rows showed and the plan adopted (the Inventory's own pins win). */
  adopted: RowAllocations;
  /** The plan's refusals (allocation and connect problems): its rows may be incomplete where these apply. */
  problems: Problem[];
}

export class AuditInputError extends Error {
  constructor(readonly problems: Problem[]) {
    super(problems.map((p) => p.message).join('; '));
    this.name = 'AuditInputError';
  }
}

export interface AuditOptions {
  zone?: string;
  parallel?: number;
  /** State stored beside our own rows, if any: its pod addresses where the rows show none. */
  previous?: RuntimeState;
}

/** The networks the file lists and their controllers: nothing else is read. */
export function auditScope(cluster: Cluster): AuditScope {
  const networks = cluster.networks.map((n) => n.name);
  return { networks, controllers: networks.map(networkControllerName) };
}

interface FirstRead {
  schema: DatabaseSchema;
  rows: ObservedRow[];
  selects: number;
}

export async function auditCluster(
  cluster: Cluster,
  zones: AuditZone[],
  options: AuditOptions = {},
): Promise<AuditResult> {
  const scope = auditScope(cluster);
  const names = zones.map((z) => z.name);
  const dbOf = (name: string) => zones.find((z) => z.name === name)!.db;
  const first = await eachZone(
    names,
    async (name): Promise<FirstRead> => {
      const schema = await dbOf(name).getSchema(NB_DATABASE);
      return { schema, ...(await readScoped(dbOf(name), schema, scope)) };
    },
    options.parallel,
  );
  const adopted = allocationsInRows(
    cluster,
    first.flatMap((o) => (o.ok ? o.value.rows : [])),
  );
  const previous: RuntimeState = {
    ...(options.previous ?? { version: runtimeStateVersion, allocation: emptyState(), pods: {} }),
  };
  previous.pods = { ...previous.pods, ...adopted.pods };
  const planned = planTopology(withRowAllocations(cluster, adopted), previous, { zone: options.zone });
  if (!planned.ok) throw new AuditInputError(planned.problems);
  const outcomes = await eachZone(
    names,
    async (name) => {
      const read = first.find((o) => o.zone === name)!;
      if (!read.ok) throw read.cause;
      const plan = planned.plan.zones.find((z) => z.name === name);
      return auditZone(dbOf(name), plan, read.value, scope);
    },
    options.parallel,
  );
  return { zones: outcomes, adopted, problems: planned.plan.problems };
}

async function auditZone(
  db: OvsdbDatabase,
  plan: ZonePlan | undefined,
  first: FirstRead,
  scope: AuditScope,
): Promise<ZoneAudit> {
  const adapted = adaptToServer(plan?.rows ?? [], first.schema);
  const read = await readScoped(db, first.schema, scope, adapted.rows, first.rows);
  const expected = naturalRows(plannedAsObserved(adapted.rows, first.schema), first.schema);
  const found = naturalRows(read.rows, first.schema);
  return {
    endpoint: db.endpoint,
    comparison: compareRows(expected, found),
    expected: expected.length,
    read: found.length,
    selects: first.selects + read.selects,
    notes: adapted.notes,
  };
}
