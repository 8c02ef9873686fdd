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
import { onZones, type ZoneTargets } from '../cluster/zones';
import { adaptToServer } from '../compat';
import { NB_DATABASE } from '../connections';
import { DEFAULT_PARALLEL, eachZone, type ZoneOutcome } from '../eachZone';
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

/** What a zone's audit reads before the plan: the server's schema and the audited networks' rows. */
export interface FirstRead {
  schema: DatabaseSchema;
  rows: ObservedRow[];
  selects: number;
}

export async function readAuditZone(db: OvsdbDatabase, scope: AuditScope): Promise<FirstRead> {
  const schema = await db.getSchema(NB_DATABASE);
  return { schema, ...(await readScoped(db, schema, scope)) };
}

/** The plan the zones' rows imply: the allocations they show adopted where the Inventory pins none. */
function auditPlan(cluster: Cluster, reads: FirstRead[], options: AuditOptions) {
  const adopted = allocationsInRows(
    cluster,
    reads.flatMap((r) => r.rows),
  );
  const previous: RuntimeState = {
    ...(options.previous ?? { version: runtimeStateVersion, allocation: emptyState(), pods: {} }),
  };
  previous.pods = { ...previous.pods, ...adopted.pods };
  const planned = planTopology(withRowAllocations(cluster, adopted), previous, { zone: options.zone });
  if (!planned.ok) throw new AuditInputError(planned.problems);
  return { adopted, plan: planned.plan };
}

/**
 * The audit of zones already read (readAuditZone, on the connection of their state read), each
 * held again through `targets` for its comparison, `targets.parallel` at a time.
 */
export async function auditReadZones(
  cluster: Cluster,
  reads: { name: string; first: FirstRead }[],
  targets: ZoneTargets,
  options: Omit<AuditOptions, 'parallel'> = {},
): Promise<AuditResult> {
  const scope = auditScope(cluster);
  const { adopted, plan } = auditPlan(
    cluster,
    reads.map((r) => r.first),
    options,
  );
  const zones = await onZones(targets, ({ name, db }) =>
    auditZone(
      db,
      plan.zones.find((z) => z.name === name),
      reads.find((r) => r.name === name)!.first,
      scope,
    ),
  );
  return { zones, adopted, problems: plan.problems };
}

/** The audit of connected zones: each read, then all planned, then each compared. */
export async function auditCluster(
  cluster: Cluster,
  zones: AuditZone[],
  options: AuditOptions = {},
): Promise<AuditResult> {
  const scope = auditScope(cluster);
  const dbOf = (name: string) => zones.find((z) => z.name === name)!.db;
  const first = await eachZone(
    zones.map((z) => z.name),
    (name) => readAuditZone(dbOf(name), scope),
    options.parallel,
  );
  const reads = first.flatMap((o) => (o.ok ? [{ name: o.zone, first: o.value }] : []));
  const held = (name: string) => async () => ({ db: dbOf(name), release: async () => {} });
  const targets = {
    zones: reads.map(({ name }) => ({ name, open: held(name) })),
    parallel: options.parallel ?? DEFAULT_PARALLEL,
  };
  const result = await auditReadZones(cluster, reads, targets, options);
  return { ...result, zones: first.map((o) => (o.ok ? result.zones.find((z) => z.zone === o.zone)! : o)) };
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
