/**
 * ClusterPrediction (`pulumi-nodejs:dynamic/ovnk:ClusterPrediction`): Kubernetes mode's
 * cluster-manager. Its check is ClusterAllocations' (the same model, validation and allocation
 * against the previous allocations, no I/O), so a topology Northbound mode refuses is refused
 * here too, before any custom resource depends on it; it adds the allocations in upstream's
 * annotation formats and the replacements the change implies (objects whose transition-rule
 * paths changed: upstream refuses the update, so they are deleted and created). It has no
 * endpoint, no slices and no zone rows: create, update and delete touch nothing. Its read
 * (`pulumi refresh`) audits the zones' Northbounds when the stack configures endpoints
 * (predictionAudit.ts: read-only), and says so under `audit`.
 */
import { predictedAnnotations } from '../../alloc/annotations';
import { replacementsOf } from '../kubernetes/objects';
import { allocationSummary } from './clusterKind';
import { topologyDiff } from './detailedDiff';
import { inputChanged, ownerFailure } from './kind';
import { auditPrediction } from './predictionAudit';
import {
  type CheckResult,
  containsUnknown,
  type DiffResult,
  jsonClean,
  type Props,
  type ResourceKind,
} from './protocol';
import { configureSettings } from './settings';
import {
  allocateFailures,
  allocateInputs,
  objectRef,
  readTopology,
  stateOf,
  type TopologyObject,
} from './topologyInput';

function check(olds: Props, news: Props): CheckResult<Props> {
  if (containsUnknown(news)) return { inputs: news };
  const read = readTopology(news);
  const owner = ownerFailure(news.owner);
  if (!read.topology) return { inputs: news, failures: [...owner, ...read.failures] };
  const result = allocateInputs(read.topology, stateOf(olds));
  const failures = [...owner, ...allocateFailures(result, read.topology)];
  if (!result.ok || failures.length > 0) return { inputs: news, failures };
  const { allocated } = result;
  return {
    inputs: jsonClean({
      owner: news.owner,
      ...read.topology,
      allocations: allocationSummary(allocated),
      annotations: predictedAnnotations(allocated.allocation),
      replacements: replacements(olds, read.topology.networks, read.topology.connects),
      state: allocated.state,
    }),
  };
}

/** Each object of `olds` that is still given and changed under a transition-rule path. */
function replacements(olds: Props, networks: TopologyObject[], connects: TopologyObject[]): string[] {
  const before = new Map<string, TopologyObject>();
  for (const key of ['networks', 'connects'])
    for (const o of Array.isArray(olds[key]) ? (olds[key] as TopologyObject[]) : []) before.set(objectRef(o), o);
  return [...networks, ...connects].flatMap((now) => {
    const old = before.get(objectRef(now));
    return old ? replacementsOf(old, now) : [];
  });
}

function diff(olds: Props, news: Props): DiffResult {
  const keys = ['owner', 'inventory', 'networks', 'connects', 'allocations', 'annotations', 'state'];
  const changes = keys.some((k) => inputChanged(olds, news, k));
  return changes ? { changes, detailedDiff: topologyDiff(olds, news) } : { changes };
}

export const ClusterPrediction: ResourceKind = {
  configure: async ({ config }) => configureSettings(config),
  check: async (olds, news) => check(olds, news),
  diff: async (_id, olds, news) => diff(olds, news),
  create: async (inputs) => ({ id: 'prediction', outs: jsonClean(inputs) }),
  read: async (id, props) => {
    const { audit: _previous, ...rest } = props;
    const audit = await auditPrediction(rest);
    return { id, props: audit === undefined ? rest : jsonClean({ ...rest, audit }) };
  },
  update: async (_id, _olds, news) => ({ outs: jsonClean(news) }),
  delete: async () => undefined,
};
