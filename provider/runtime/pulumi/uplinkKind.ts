/**
 * UplinkState (`pulumi-nodejs:dynamic/ovnk:UplinkState`): one Uplink on one node (OKEP-6019).
 * check plans offline (no I/O): the problems as failures naming the property, the physical
 * networks (one per CUDN naming the Uplink) and the UplinkState's name; which bridge each maps to
 * needs the node's interfaces, so `mappings` is an output. create/update discover the node
 * over SSH, write its mappings (provider/runtime/uplink, one guarded transaction) and pin its
 * Uplink bridges' static FDB entries (staticFdb.ts); read discovers afresh, so refresh shows a
 * removed mapping, a moved interface or a lost FDB entry as drift; delete removes only the
 * mappings and entries this owner wrote. With `routeAdvertisements` (and ClusterAllocations'
 * `networkIds`) the node's VRF membership is applied after the mappings, read reports it (a
 * membership released by hand is drift) and delete releases only what this owner made; VRF
 * conflicts and failures show as conditions and in `vrf`, never as a failed operation.
 */
import type { Cluster } from '../../model/cluster';
import { uplinksOf } from '../../model/cudn';
import { physicalNetworkOf, uplinkStateName } from '../../uplink/names';
import { planUplinks, type UplinkPlan } from '../../uplink/plan';
import { upstreamUplinkState } from '../../uplink/upstreamShape';
import {
  applyUplinks,
  destroyUplinks,
  discoverUplinks,
  driftFindings,
  findingLine,
  type UplinkRunResult,
} from '../uplink';
import { keyPathFailures } from './keyPaths';
import { ownerFailure, driftCount, inputChanged, stateVersion } from './kind';
import {
  checkFailure,
  failureOf,
  type CheckFailure,
  type CheckResult,
  containsUnknown,
  type DiffResult,
  jsonClean,
  type Props,
  type ResourceKind,
  SCHEMA_VERSION,
  withoutProvider,
} from './protocol';
import { configureSettings, SSH_KEY_SOURCES, sshSettings } from './settings';
import { uplinkCluster, type YamlObject } from './uplinkInput';
import { uplinkVrfOf } from './uplinkVrf';

const objectsOf = (props: Props): YamlObject[] =>
  [props.inventory, props.uplink, ...((props.networks ?? []) as unknown[])] as YamlObject[];

function clusterOf(props: Props): Cluster {
  const { cluster, problems } = uplinkCluster(objectsOf(props));
  if (!cluster)
    throw new Error(
      `the stored UplinkState inputs no longer build: ${problems.map((p) => `${p.property}: ${p.reason}`).join('; ')}`,
    );
  return cluster;
}

/** The node's step and the UplinkState object of this Uplink on it. */
function mine(plan: UplinkPlan, props: Props) {
  const name = uplinkStateName(String((props.uplink as YamlObject).metadata?.name), String(props.node));
  return {
    step: plan.nodes.find((s) => s.node === props.node),
    state: plan.uplinkStates.find((s) => s.metadata.name === name) ?? null,
    name,
  };
}

function check(news: Props): CheckResult<Props> {
  if (containsUnknown(news)) return { inputs: news };
  const failures: CheckFailure[] = [...ownerFailure(news.owner), ...keyPathFailures(news.inventory)];
  if (typeof news.node !== 'string' || news.node === '')
    failures.push(checkFailure('node', 'InvalidField', `node must be a node name, not ${JSON.stringify(news.node)}`));
  const { cluster, problems } = uplinkCluster(objectsOf(news));
  if (!cluster || failures.length > 0) return { inputs: news, failures: [...failures, ...problems] };
  const plan = planUplinks({ cluster, owner: String(news.owner) });
  const refused = plan.problems.map((p) => failureOf(p));
  if (!cluster.inventory.nodes.some((n) => n.name === news.node))
    refused.push(checkFailure('node', 'InvalidField', `node ${news.node} is not a node of the inventory`));
  const vrf = uplinkVrfOf(news, cluster);
  if (vrf && !vrf.ok) refused.push(...vrf.failures);
  if (refused.length > 0) return { inputs: news, failures: refused };
  const physicalNetworks = cluster.networks
    .filter((n) => uplinksOf(n)?.includes(String((news.uplink as YamlObject).metadata?.name)))
    .map((n) => physicalNetworkOf(n.objectName))
    .sort();
  return {
    inputs: jsonClean({ ...news, ...(vrf?.ok ? vrf.props : {}), stateName: mine(plan, news).name, physicalNetworks }),
  };
}

function diff(olds: Props, news: Props): DiffResult {
  const differs = (key: string) => inputChanged(olds, news, key);
  const replaces = ['owner', 'node'].filter(differs);
  const changes =
    replaces.length > 0 ||
    ['inventory', 'uplink', 'networks', 'physicalNetworks', 'routeAdvertisements', 'networkIds', 'hostSubnets'].some(
      differs,
    ) ||
    driftCount(olds) > 0 ||
    olds.schemaVersion !== SCHEMA_VERSION;
  return { changes, replaces, deleteBeforeReplace: replaces.length > 0 };
}

/**
 * The run options: the node's SSH key from stack config or the agent, and VRF input when the
 * resource was given RouteAdvertisements.
 */
function runOptions(props: Props, cluster: Cluster) {
  const vrf = uplinkVrfOf(props, cluster);
  if (vrf && !vrf.ok)
    throw new Error(
      `the stored UplinkState VRF inputs no longer parse: ${vrf.failures.map((f) => `${f.property}: ${f.reason}`).join('; ')}`,
    );
  const ssh = { ...sshSettings(), sources: `set ${SSH_KEY_SOURCES}` };
  return vrf ? { ssh, vrf: vrf.vrf } : { ssh };
}

/**
 * This node's VRF report (null without RouteAdvertisements): outcomes per CUDN and the steps
 * planned or run, or why not.
 */
const vrfOf = (result: UplinkRunResult, props: Props) => result.vrf[String(props.node)] ?? null;

async function write(inputs: Props): Promise<Props> {
  const props = withoutProvider(inputs);
  const cluster = clusterOf(props);
  const result = await applyUplinks(cluster, String(props.owner), runOptions(props, cluster));
  const { step, state } = mine(result, props);
  if (step?.error) throw new Error(`node ${props.node}: ${step.error.reason}: ${step.error.message}`);
  const written = result.written[String(props.node)];
  if (written && 'error' in written)
    throw new Error(`node ${props.node}: writing ovn-bridge-mappings failed: ${written.error}`);
  const mappings = (step?.desired ?? []).map((m) => `${m.network}:${m.bridge}`);
  return jsonClean({
    ...props,
    schemaVersion: SCHEMA_VERSION,
    mappings,
    uplinkState: state && upstreamUplinkState(state),
    vrf: vrfOf(result, props),
    drift: { lines: [], count: 0 },
  });
}

async function read(id: string, stored: Props): Promise<{ id: string; props: Props }> {
  stateVersion(stored);
  const props = withoutProvider(stored);
  const cluster = clusterOf(props);
  const result = await discoverUplinks(cluster, String(props.owner), runOptions(props, cluster));
  const { state } = mine(result, props);
  const lines = driftFindings({ ...result, nodes: result.nodes.filter((s) => s.node === props.node) }).map(findingLine);
  return {
    id,
    props: jsonClean({
      ...props,
      uplinkState: state && upstreamUplinkState(state),
      vrf: vrfOf(result, props),
      drift: { lines: lines.slice(0, 20), count: lines.length },
    }),
  };
}

export const UplinkState: ResourceKind = {
  configure: async ({ config }) => configureSettings(config),
  check: async (_olds, news) => check(news),
  diff: async (_id, olds, news) => diff(olds, news),
  create: async (inputs) => ({ id: String(inputs.owner), outs: await write(inputs) }),
  read,
  update: async (_id, olds, news) => {
    stateVersion(olds);
    return { outs: await write(news) };
  },
  delete: async (_id, props) => {
    stateVersion(props);
    const stored = withoutProvider(props);
    const cluster = clusterOf(stored);
    const result = await destroyUplinks(cluster, String(props.owner), runOptions(stored, cluster));
    const { step } = mine(result, props);
    if (step?.error) throw new Error(`node ${props.node}: ${step.error.reason}: ${step.error.message}`);
    const written = result.written[String(props.node)];
    if (written && 'error' in written)
      throw new Error(`node ${props.node}: removing this owner's ovn-bridge-mappings failed: ${written.error}`);
    const vrf = vrfOf(result, props);
    if (props.routeAdvertisements !== undefined && vrf && 'error' in vrf)
      throw new Error(`node ${props.node}: releasing this owner's VRF membership failed: ${vrf.error}`);
  },
};
