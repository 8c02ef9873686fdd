/**
 * Kubernetes mode's audit: on ClusterPrediction's read (`pulumi refresh`), when the stack
 * configures Northbound endpoints (`ovnk:nb`, `ovnk:zoneEndpoints`), each configured zone's
 * Northbound is compared with the prediction by upstream's identities (runtime/audit: read-only,
 * no owner marker), so a refresh shows whether ovn-kubernetes rendered what the prediction says.
 * Without endpoints there is no audit (the prediction stays I/O-free). Plain JSON for the state:
 * per zone the rows missing, the rows that differ (columns, expected and found) and the rows of
 * the predicted networks nobody expects, or why the zone could not be read.
 */
import { auditCluster, type ZoneAudit } from '../audit';
import { buildTopology } from '../plan';
import { zoneNames } from '../readable';
import type { Props } from './protocol';
import { endpointOf } from './settings';
import { readTopology, stateOf } from './topologyInput';
import { zoneDatabase } from './zoneDatabase';

export interface PredictionAudit {
  /** Whether every configured zone holds what the prediction implies. */
  agrees: boolean;
  zones: Record<string, ZoneAuditSummary>;
}

export type ZoneAuditSummary =
  | {
      endpoint: string;
      /** `<table> <key>` of each planned row that is not there. */
      missing: string[];
      differing: { table: string; key: string; foundKey?: string; columns: unknown[] }[];
      /** `<table> <key>` of each row of the predicted networks the prediction does not expect. */
      unexpected: string[];
    }
  | { error: string };

const named = (r: { table: string; key: string }) => `${r.table} ${r.key}`;

function summary(audit: ZoneAudit): ZoneAuditSummary {
  const c = audit.comparison;
  return {
    endpoint: audit.endpoint,
    missing: c.missing.map(named),
    differing: c.differing,
    unexpected: c.unexpected.map(named),
  };
}

/** The audit of the configured zones, or undefined when the stack configures none. */
export async function auditPrediction(props: Props): Promise<PredictionAudit | undefined> {
  const read = readTopology(props);
  if (!read.topology) return undefined;
  const { inventory, networks, connects } = read.topology;
  const built = buildTopology({ objects: [inventory, ...networks, ...connects] });
  if (!built.ok) return undefined;
  const names = zoneNames(built.cluster).filter((z) => endpointOf(z) !== undefined);
  if (names.length === 0) return undefined;
  const zones: PredictionAudit['zones'] = {};
  const connected = await Promise.all(
    names.map(async (name) => {
      try {
        return { name, db: await zoneDatabase(name) };
      } catch (error) {
        zones[name] = { error: (error as Error).message };
        return undefined;
      }
    }),
  );
  const reachable = connected.flatMap((z) => (z ? [z] : []));
  const result = await auditCluster(built.cluster, reachable, { previous: stateOf(props) });
  for (const outcome of result.zones)
    zones[outcome.zone] = outcome.ok ? summary(outcome.value) : { error: outcome.why };
  const agrees = Object.values(zones).every(
    (z) => !('error' in z) && z.missing.length + z.differing.length + z.unexpected.length === 0,
  );
  return { agrees, zones: Object.fromEntries(names.map((n) => [n, zones[n]!])) };
}
