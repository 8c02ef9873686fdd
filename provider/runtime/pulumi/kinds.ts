/**
 * The per-zone resource kinds (`pulumi-nodejs:dynamic/ovnk:<Type>`): NetworkRows (one network,
 * central layout), ConnectRouter (one connect, central layout; its connectSubnets are immutable,
 * so a change replaces it, deleting first) and ZoneRows (one zone of the per-node layout, every
 * network and connect in it). Each carries only its packed slice from ClusterAllocations (and,
 * for Uplink CUDNs, the UplinkStates of their Uplinks, which give their gateway routers' external
 * side): check
 * validates shapes, diff compares identities and the slice digest (no planning, no rendering);
 * create, update and read render the slice for the resource's zone. A ZoneRows carries a
 * reference to the zone catalog ClusterAllocations publishes in its zone (catalog.ts), not the
 * catalog, so the stack's state grows with the nodes, not their square.
 */
import { sameJson } from '../../model/canonical';
import type { DesiredRow } from '../../nb/desired';
import type { UplinkState } from '../../uplink/conditions';
import { routerGateways } from '../../uplink/routerGateway';
import { CatalogError, isCatalogRef, sliceOf } from './catalog';
import { asReplacement, fieldDiff, sliceDiff, sliceParts, upkeepDiff } from './detailedDiff';
import { driftCount, inputChanged, ownerFailure, zoneRowMethods } from './kind';
import { isPacked, sliceDigest } from './pack';
import {
  checkFailure,
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
import { configureSettings } from './settings';
import { connectSliceRows, networkSliceRows, zoneSliceRows } from './sliceRows';
import type { ConnectSlice, NetworkSlice, ZoneSlice } from './slices';

interface SliceKindSpec {
  name: string;
  /** Input keys whose change replaces the resource (identity and immutable specs). */
  replaceKeys: string[];
  /** Why a resource of this kind can have no slice (an InvalidSpec check failure's message). */
  noSlice(news: Props): string;
  /** The named parts of its slice, for the diff in words (detailedDiff.ts). */
  parts: (slice: Record<string, unknown>) => Record<string, Record<string, unknown>>;
  /** The rows of the slice in `zone`; `uplinkStates` are the resource's UplinkStates input (Uplink CUDNs' gateways). */
  render(slice: unknown, zone: string, uplinkStates: UplinkState[]): DesiredRow[];
  /** Whether the slice may be a reference to a catalog published in the zone (catalog.ts): ZoneRows. */
  byReference?: boolean;
}

/** The UplinkStates input of a resource (absent: none; a resource of a cluster without Uplinks has none). */
const uplinkStatesOf = (props: Props): UplinkState[] =>
  Array.isArray(props.uplinkStates) ? (props.uplinkStates as UplinkState[]) : [];

/** What of the UplinkStates the rows depend on (not their conditions, which change as nodes are written). */
const gatewaysOf = (props: Props) =>
  [...routerGateways(uplinkStatesOf(props))].map(([uplink, nodes]) => [uplink, [...nodes]]);

function check(spec: SliceKindSpec, news: Props): CheckResult<Props> {
  if (containsUnknown(news)) return { inputs: news };
  const failures: CheckFailure[] = [...ownerFailure(news.owner)];
  for (const key of spec.replaceKeys.filter((k) => k !== 'owner' && k !== 'connectSubnets')) {
    if (typeof news[key] !== 'string' || news[key] === '')
      failures.push(
        checkFailure(key, 'InvalidField', `${key} must be a non-empty string, not ${JSON.stringify(news[key])}`),
      );
  }
  if (!isPacked(news.slice) && !(spec.byReference && isCatalogRef(news.slice)))
    failures.push(
      news.slice === undefined
        ? checkFailure('slice', 'InvalidSpec', spec.noSlice(news))
        : checkFailure(
            'slice',
            'InvalidField',
            `slice must be the packed slice ClusterAllocations outputs ({summary, digest, data})${spec.byReference ? ' or a reference to its published catalog ({summary, digest, owner})' : ''}`,
          ),
    );
  return failures.length > 0 ? { inputs: news, failures } : { inputs: jsonClean(news) };
}

function diff(spec: SliceKindSpec, olds: Props, news: Props): DiffResult {
  const differs = (key: string) => inputChanged(olds, news, key);
  const replaces = spec.replaceKeys.filter(differs);
  const slice = containsUnknown(news.slice) || sliceDigest(olds.slice) !== sliceDigest(news.slice);
  const states = containsUnknown(news.uplinkStates) || !sameJson(gatewaysOf(olds), gatewaysOf(news));
  const changes =
    replaces.length > 0 || slice || states || driftCount(olds) > 0 || olds.schemaVersion !== SCHEMA_VERSION;
  if (!changes) return { changes, replaces, deleteBeforeReplace: false };
  const words = {
    ...Object.assign({}, ...spec.replaceKeys.map((k) => fieldDiff(olds, news, k, true))),
    ...(slice ? sliceDiff(olds, news, 'slice', spec.parts) : {}),
    ...(states ? fieldDiff(olds, news, 'uplinkStates') : {}),
    ...upkeepDiff(olds, driftCount(olds), SCHEMA_VERSION),
  };
  const detailedDiff = asReplacement(words, replaces.length > 0);
  return { changes, replaces, deleteBeforeReplace: replaces.length > 0, detailedDiff };
}

/**
 * The resource's rows by zone, from its slice (or the catalog it references: catalog.ts); an
 * unusable slice or zone is an error naming it. An update passes the stored props: a state of the
 * earlier shape holds the data of the same digest, which stands in for a catalog not yet published.
 */
async function rowsOf(spec: SliceKindSpec, props: Props, stored?: Props): Promise<Record<string, DesiredRow[]>> {
  if (props.slice === undefined && props.state !== undefined) {
    throw new Error(
      `${spec.name} state of schemaVersion 1 holds the whole topology, not its slice: run \`pulumi up\` (which rewrites it as version ${SCHEMA_VERSION}) before \`pulumi refresh\``,
    );
  }
  const zone = String(props.zone);
  const held = isPacked(stored?.slice) && sliceDigest(stored.slice) === sliceDigest(props.slice);
  const slice = await sliceOf(held ? stored!.slice : props.slice, zone);
  return { [zone]: spec.render(slice, zone, uplinkStatesOf(props)) };
}

function makeSliceKind(spec: SliceKindSpec): ResourceKind {
  const methods = zoneRowMethods((props, stored) => rowsOf(spec, props, stored));
  return {
    configure: async ({ config }) => configureSettings(config),
    check: async (_olds, news) => check(spec, news),
    diff: async (_id, olds, news) => diff(spec, olds, news),
    ...methods,
    // a missing or stale published catalog is drift, not a failed refresh: the next update repairs it
    read: async (id, stored) =>
      methods.read!(id, stored).catch((error: unknown) => {
        if (!(error instanceof CatalogError)) throw error;
        return {
          id,
          props: jsonClean({
            ...withoutProvider(stored),
            drift: { lines: [`${stored.zone}: ${error.message}`], count: 1 },
          }),
        };
      }),
  };
}

export const NetworkRows: ResourceKind = makeSliceKind({
  name: 'NetworkRows',
  replaceKeys: ['owner', 'zone', 'network'],
  noSlice: (news) =>
    `network ${news.network} renders no rows: it serves no namespace of the inventory, is not a primary Layer3/Layer2 network, or is not among the cluster's networks`,
  parts: sliceParts.network,
  render: (slice, zone, states) => networkSliceRows(slice as NetworkSlice, zone, states),
});

export const ConnectRouter: ResourceKind = makeSliceKind({
  name: 'ConnectRouter',
  replaceKeys: ['owner', 'zone', 'connect', 'connectSubnets'],
  noSlice: (news) => `connect ${news.connect} is not an accepted ClusterNetworkConnect of the cluster`,
  parts: sliceParts.connect,
  render: (slice, zone) => connectSliceRows(slice as ConnectSlice, zone),
});

export const ZoneRows: ResourceKind = makeSliceKind({
  name: 'ZoneRows',
  replaceKeys: ['owner', 'zone'],
  noSlice: () => 'the cluster has no zone catalog (ClusterAllocations outputs slices.zone)',
  parts: sliceParts.zone,
  render: (slice, zone, states) => zoneSliceRows(slice as ZoneSlice, zone, states),
  byReference: true,
});
