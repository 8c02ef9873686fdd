/**
 * RouteAdvertisements (k8s.ovn.org/v1), upstream's shape: which networks' routes are advertised
 * (PodNetwork, EgressIP), on which nodes, through which FRRConfigurations, and into which VRF
 * (`targetVRF`: `auto` = each network's own VRF, `default` or absent = the default VRF, or a VRF
 * name). Parsing plus the CRD's rules (enums, counts, uniqueness, the PodNetwork/nodeSelector CEL
 * rule, selector shapes). Uplink VRF membership is derived from these in provider/uplink/vrf*.ts.
 */
import { FieldReader, type Json } from './fields';
import type { LoadedDocument } from './load';
import { type Problem, problem } from './problem';
import { type Labels, type LabelSelector, matchesSelector, selectorShapeErrors } from './selector';

export const routeAdvertisementsApiVersion = 'k8s.ovn.org/v1';

export const advertisementTypes = ['PodNetwork', 'EgressIP'] as const;
export type AdvertisementType = (typeof advertisementTypes)[number];

export const networkSelectionTypes = [
  'DefaultNetwork',
  'ClusterUserDefinedNetworks',
  'PrimaryUserDefinedNetworks',
  'SecondaryUserDefinedNetworks',
  'NetworkAttachmentDefinitions',
] as const;
export type NetworkSelectionType = (typeof networkSelectionTypes)[number];

export interface NetworkSelector {
  networkSelectionType: NetworkSelectionType;
  /** `clusterUserDefinedNetworkSelector.networkSelector` (ClusterUserDefinedNetworks only). */
  cudnSelector?: LabelSelector;
}

export interface RouteAdvertisements {
  ref: string;
  name: string;
  /** `auto`, `default`, or a VRF name; absent means the default VRF. */
  targetVRF?: string;
  advertisements: AdvertisementType[];
  networkSelectors: NetworkSelector[];
  nodeSelector: LabelSelector;
  frrConfigurationSelector: LabelSelector;
}

/** Every RouteAdvertisements among the loaded documents, sorted by name; problems collected. */
export function parseRouteAdvertisementsDocuments(
  documents: LoadedDocument[],
  problems: Problem[],
): RouteAdvertisements[] {
  return documents
    .filter((doc) => doc.kind === 'RouteAdvertisements' && doc.apiVersion === routeAdvertisementsApiVersion)
    .flatMap((doc) => {
      const parsed = parseRouteAdvertisements(doc, problems);
      return parsed ? [parsed] : [];
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function parseRouteAdvertisements(doc: LoadedDocument, problems: Problem[]): RouteAdvertisements | undefined {
  const r = new FieldReader(doc.ref, problems);
  const spec = r.record(doc.body.spec, 'spec') ?? r.missing('spec');
  if (!spec) return undefined;
  const targetVRF = r.string(spec.targetVRF, 'spec.targetVRF');
  const advertisements = parseAdvertisements(r, spec.advertisements);
  const networkSelectors = parseNetworkSelectors(r, spec.networkSelectors);
  const nodeSelector = selectorField(r, spec.nodeSelector, 'spec.nodeSelector');
  const frrConfigurationSelector = selectorField(r, spec.frrConfigurationSelector, 'spec.frrConfigurationSelector');
  if (!advertisements || !networkSelectors || !nodeSelector || !frrConfigurationSelector) return undefined;
  const ra: RouteAdvertisements = {
    ref: doc.ref,
    name: doc.metadata.name,
    ...(targetVRF ? { targetVRF } : {}),
    advertisements,
    networkSelectors,
    nodeSelector,
    frrConfigurationSelector,
  };
  checkRules(ra, problems);
  return ra;
}

function parseAdvertisements(r: FieldReader, value: Json): AdvertisementType[] | undefined {
  const items = r.list(value, 'spec.advertisements') ?? r.missing('spec.advertisements');
  if (!items) return undefined;
  if (items.length < 1 || items.length > 2) return r.wrong('spec.advertisements', items, '1 or 2 items');
  const out = items.flatMap((item, i) => {
    const type = r.oneOf(item, `spec.advertisements[${i}]`, advertisementTypes);
    return type ? [type] : [];
  });
  if (new Set(out).size !== out.length) return r.wrong('spec.advertisements', items, 'unique items');
  return out.length === items.length ? out : undefined;
}

function parseNetworkSelectors(r: FieldReader, value: Json): NetworkSelector[] | undefined {
  const items = r.list(value, 'spec.networkSelectors') ?? r.missing('spec.networkSelectors');
  if (!items) return undefined;
  if (items.length < 1) return r.wrong('spec.networkSelectors', items, 'at least one item');
  const out = items.flatMap((item, i) => parseNetworkSelector(r, item, `spec.networkSelectors[${i}]`));
  return out.length === items.length ? out : undefined;
}

function parseNetworkSelector(r: FieldReader, value: Json, at: string): NetworkSelector[] {
  const map = r.record(value, at) ?? r.missing(at);
  if (!map) return [];
  if (map.networkSelectionType === undefined) return r.missing(`${at}.networkSelectionType`) ?? [];
  const type = r.oneOf(map.networkSelectionType, `${at}.networkSelectionType`, networkSelectionTypes);
  if (!type) return [];
  if (type !== 'ClusterUserDefinedNetworks') return [{ networkSelectionType: type }];
  const inner =
    r.record(map.clusterUserDefinedNetworkSelector, `${at}.clusterUserDefinedNetworkSelector`) ??
    r.missing(`${at}.clusterUserDefinedNetworkSelector`);
  const cudnSelector =
    inner && selectorField(r, inner.networkSelector, `${at}.clusterUserDefinedNetworkSelector.networkSelector`);
  return cudnSelector ? [{ networkSelectionType: type, cudnSelector }] : [];
}

/** A label selector whose operators and values have the shapes Kubernetes accepts. */
function selectorField(r: FieldReader, value: Json, at: string): LabelSelector | undefined {
  const selector = r.selector(value, at) ?? r.missing(at);
  if (!selector) return undefined;
  for (const error of selectorShapeErrors(selector)) {
    r.problems.push(
      problem(
        'InvalidField',
        r.object,
        `${at}.matchExpressions[${error.index}]`,
        `${at}.matchExpressions[${error.index}] ${error.message}`,
      ),
    );
  }
  return selector;
}

/**
 * Does `ra` advertise the pod network of the ClusterUserDefinedNetwork with `cudnLabels` on a
 * node with `nodeLabels`? (upstream's RouteAdvertisements controller: PodNetwork among the
 * advertisements, a ClusterUserDefinedNetworks selector matching the CUDN, the node selected.)
 */
export function advertisesCudnPodNetwork(ra: RouteAdvertisements, cudnLabels: Labels, nodeLabels: Labels): boolean {
  if (!ra.advertisements.includes('PodNetwork')) return false;
  if (!matchesSelector(ra.nodeSelector, nodeLabels)) return false;
  return ra.networkSelectors.some(
    (s) =>
      s.networkSelectionType === 'ClusterUserDefinedNetworks' &&
      s.cudnSelector !== undefined &&
      matchesSelector(s.cudnSelector, cudnLabels),
  );
}

const isEmpty = (s: LabelSelector): boolean =>
  Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0;

/** The CRD's CEL rules the apiserver enforces. */
function checkRules(ra: RouteAdvertisements, problems: Problem[]): void {
  if (ra.advertisements.includes('PodNetwork') && !isEmpty(ra.nodeSelector)) {
    problems.push(
      problem(
        'InvalidSpec',
        ra.ref,
        'spec.nodeSelector',
        "If 'PodNetwork' is selected for advertisement, a 'nodeSelector' can't be specified as it needs to be advertised on all nodes",
      ),
    );
  }
  if (ra.targetVRF !== undefined && !/^[^/\s]{1,15}$/.test(ra.targetVRF)) {
    problems.push(
      problem(
        'InvalidField',
        ra.ref,
        'spec.targetVRF',
        `spec.targetVRF "${ra.targetVRF}" is not a VRF name: use auto, default, or a device name of 1 to 15 characters without "/" or white space`,
      ),
    );
  }
}
