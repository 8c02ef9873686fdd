/**
 * Conditions' `lastTransitionTime`, which upstream's CRDs require (metav1.Condition): set when a
 * condition's status changes and kept while it does not, as upstream's SSA merge against the last
 * published condition keeps it (uplink-upstream.md 3.5, "merged against the last published
 * condition to keep LTT"). We have no API server to publish to, so the node keeps them: one
 * external_ids key per owner and object on the node the object lives on (an UplinkState on its
 * node, an Uplink on each node it selects), `<status> <time>` per condition type. A run that
 * changes no status writes nothing, so a second apply still changes nothing. Pure.
 */
import type { Condition, UplinkState } from './conditions';
import type { UplinkObjectStatus } from './plan';

/** Per condition type: its status and when it last changed. */
export type ConditionTimes = Record<string, { status: string; time: string }>;

export const CONDITION_TIMES_PREFIX = 'ovnk.io/conditions/';

/** The node's external_ids key of one object's times: `ovnk.io/conditions/<owner>/<Kind>/<name>`. */
export const conditionTimesKey = (owner: string, kind: string, name: string): string =>
  `${CONDITION_TIMES_PREFIX}${owner}/${kind}/${name}`;

/** The stored text (`Resolved=True@2026-...;GatewayReady=False@...`); unusable entries are left out. */
export function parseConditionTimes(text: string | undefined): ConditionTimes {
  const times: ConditionTimes = Object.create(null) as ConditionTimes;
  for (const entry of (text ?? '').split(';')) {
    const match = /^([A-Za-z]+)=(True|False|Unknown)@(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)$/.exec(entry);
    if (match) times[match[1]!] = { status: match[2]!, time: match[3]! };
  }
  return times;
}

export function formatConditionTimes(conditions: readonly Condition[]): string {
  return conditions.map((c) => `${c.type}=${c.status}@${c.lastTransitionTime}`).join(';');
}

/** RFC 3339 to the second, as metav1.Time serializes. */
export const conditionTime = (date: Date): string => `${date.toISOString().slice(0, 19)}Z`;

/** Each condition with its time: kept from `kept` while its status is the same, else `now`. */
export function stampConditions(conditions: readonly Condition[], kept: ConditionTimes, now: string): Condition[] {
  return conditions.map((c) => {
    const before = kept[c.type];
    const time = before && before.status === c.status ? before.time : now;
    return { ...c, lastTransitionTime: time };
  });
}

/**
 * The kept times of an object recorded on several nodes (an Uplink lives on each node it selects):
 * per type the latest record, so a node that missed the last change does not bring back an old one.
 */
export function keptTimes(records: ConditionTimes[]): ConditionTimes {
  const kept: ConditionTimes = Object.create(null) as ConditionTimes;
  for (const record of records)
    for (const [type, entry] of Object.entries(record))
      if (!kept[type] || entry.time > kept[type].time) kept[type] = entry;
  return kept;
}

export interface StampedObjects {
  uplinks: UplinkObjectStatus[];
  uplinkStates: UplinkState[];
}

/**
 * Stamp every object of a plan from what the nodes keep (`keptOn(node)`: that node's external_ids,
 * undefined when it was not discovered) and say, per node, the keys whose text changes; with
 * `forget` (destroy), the keys of these objects to remove (value undefined).
 */
export function stampObjects(
  objects: StampedObjects,
  owner: string,
  keptOn: (node: string) => Readonly<Record<string, string>> | undefined,
  now: string,
  forget = false,
): StampedObjects & { writes: Map<string, Record<string, string | undefined>> } {
  const writes = new Map<string, Record<string, string | undefined>>();
  const record = (node: string, key: string, text: string) => {
    const kept = keptOn(node);
    if (!kept || kept[key] === (forget ? undefined : text)) return;
    writes.set(node, { ...writes.get(node), [key]: forget ? undefined : text });
  };
  const uplinkStates = objects.uplinkStates.map((state) => {
    const { nodeName } = state.spec;
    const key = conditionTimesKey(owner, 'UplinkState', state.metadata.name);
    const conditions = stampConditions(state.status.conditions, parseConditionTimes(keptOn(nodeName)?.[key]), now);
    record(nodeName, key, formatConditionTimes(conditions));
    return { ...state, status: { ...state.status, conditions } };
  });
  const uplinks = objects.uplinks.map((uplink) => {
    const key = conditionTimesKey(owner, 'Uplink', uplink.metadata.name);
    const nodes = uplink.status.selectedNodes;
    const kept = keptTimes(nodes.map((n) => parseConditionTimes(keptOn(n)?.[key])));
    const conditions = stampConditions(uplink.status.conditions, kept, now);
    for (const node of nodes) record(node, key, formatConditionTimes(conditions));
    return { ...uplink, status: { ...uplink.status, conditions } };
  });
  return { uplinks, uplinkStates, writes };
}
