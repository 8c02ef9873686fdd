/**
 * The ClusterNetworkConnect CRD's schema and CEL rules, which the apiserver enforces upstream,
 * with the apiserver's and the CEL rules' message texts. Each broken rule is an InvalidSpec
 * problem at its field path.
 */
import { type Cidr, addressBits, parseCidr } from '../model/cidr';
import type { ClusterNetworkConnect, ConnectSubnetSpec, NetworkSelectorSpec } from '../model/cnc';
import { failure } from '../model/outcome';
import { type Problem, problem } from '../model/problem';
import { selectorShapeErrors } from '../model/selector';

const selectionTypes = [
  'DefaultNetwork',
  'ClusterUserDefinedNetworks',
  'PrimaryUserDefinedNetworks',
  'SecondaryUserDefinedNetworks',
  'NetworkAttachmentDefinitions',
];
const unionMembers: Record<string, string> = {
  ClusterUserDefinedNetworks: 'clusterUserDefinedNetworkSelector',
  PrimaryUserDefinedNetworks: 'primaryUserDefinedNetworkSelector',
  SecondaryUserDefinedNetworks: 'secondaryUserDefinedNetworkSelector',
  NetworkAttachmentDefinitions: 'networkAttachmentDefinitionSelector',
};

export interface ValidConnectSubnet {
  cidr: string;
  parsed: Cidr;
  networkPrefix: number;
}

/** Every broken rule, and the connect subnets that are usable when there is none. */
export function checkSpec(cnc: ClusterNetworkConnect): { problems: Problem[]; connectSubnets: ValidConnectSubnet[] } {
  const problems: Problem[] = [];
  const report = (field: string, message: string) => problems.push(problem('InvalidSpec', cnc.ref, field, message));
  checkSelectors(cnc.networkSelectors, report);
  const connectSubnets = checkConnectSubnets(cnc.connectSubnets, report);
  checkConnectivity(cnc.connectivity, report);
  return { problems, connectSubnets: problems.length === 0 ? connectSubnets : [] };
}

type Report = (field: string, message: string) => void;

function checkCount(items: unknown[] | undefined, field: string, max: number, report: Report): items is unknown[] {
  if (items === undefined) report(field, `${field}: Required value`);
  else if (items.length === 0) report(field, `${field} in body should have at least 1 items`);
  else if (items.length > max) report(field, `${field}: Too many: ${items.length}: must have at most ${max} items`);
  else return true;
  return false;
}

function checkSelectors(selectors: NetworkSelectorSpec[] | undefined, report: Report): void {
  if (!checkCount(selectors, 'spec.networkSelectors', 5, report)) return;
  const seen = new Set<string>();
  selectors!.forEach((s, i) => {
    const at = `spec.networkSelectors[${i}]`;
    const type = s.networkSelectionType;
    if (type === undefined) return report(`${at}.networkSelectionType`, `${at}.networkSelectionType: Required value`);
    if (!selectionTypes.includes(type))
      return report(`${at}.networkSelectionType`, `${at}.networkSelectionType: Unsupported value: "${type}"`);
    if (seen.has(type))
      report(`${at}.networkSelectionType`, `${at}: Duplicate value: {"networkSelectionType":"${type}"}`);
    seen.add(type);
    if (type !== 'ClusterUserDefinedNetworks' && type !== 'PrimaryUserDefinedNetworks')
      report(at, 'Only ClusterUserDefinedNetworks or PrimaryUserDefinedNetworks can be selected');
    for (const [memberType, member] of Object.entries(unionMembers)) {
      const present =
        member === 'clusterUserDefinedNetworkSelector'
          ? !!s.clusterUserDefinedNetworkSelector
          : member === 'primaryUserDefinedNetworkSelector'
            ? !!s.primaryUserDefinedNetworkSelector
            : s.otherMembers.includes(member);
      if (present !== (type === memberType))
        report(
          at,
          `Inconsistent selector: both networkSelectionType ${memberType} and ${member} have to be set or neither`,
        );
    }
    checkSelectorBody(s, at, report);
  });
}

function checkSelectorBody(s: NetworkSelectorSpec, at: string, report: Report): void {
  const cudn = s.clusterUserDefinedNetworkSelector;
  const pudn = s.primaryUserDefinedNetworkSelector;
  if (cudn && !cudn.networkSelector)
    report(
      `${at}.clusterUserDefinedNetworkSelector.networkSelector`,
      `${at}.clusterUserDefinedNetworkSelector.networkSelector: Required value`,
    );
  if (pudn && !pudn.namespaceSelector)
    report(
      `${at}.primaryUserDefinedNetworkSelector.namespaceSelector`,
      `${at}.primaryUserDefinedNetworkSelector.namespaceSelector: Required value`,
    );
  const selector = cudn?.networkSelector ?? pudn?.namespaceSelector;
  const where = cudn?.networkSelector
    ? `${at}.clusterUserDefinedNetworkSelector.networkSelector`
    : `${at}.primaryUserDefinedNetworkSelector.namespaceSelector`;
  for (const e of selector ? selectorShapeErrors(selector) : [])
    report(`${where}.matchExpressions[${e.index}]`, `${where}.matchExpressions[${e.index}]: ${e.message}`);
}

function checkConnectSubnets(subnets: ConnectSubnetSpec[] | undefined, report: Report): ValidConnectSubnet[] {
  if (!checkCount(subnets, 'spec.connectSubnets', 2, report)) return [];
  const valid = subnets!.flatMap((s, i) => checkConnectSubnet(s, `spec.connectSubnets[${i}]`, report));
  if (valid.length === 2) {
    const [a, b] = valid as [ValidConnectSubnet, ValidConnectSubnet];
    if (a.parsed.family === b.parsed.family)
      report('spec.connectSubnets', 'When 2 CIDRs are set, they must be from different IP families');
    else if (addressBits(a.parsed.family) - a.networkPrefix !== addressBits(b.parsed.family) - b.networkPrefix) {
      report(
        'spec.connectSubnets',
        'For dual-stack, networkPrefix must have matching host bits: (32 - ipv4NetworkPrefix) must equal (128 - ipv6NetworkPrefix)',
      );
    }
  }
  return valid;
}

function checkConnectSubnet(s: ConnectSubnetSpec, at: string, report: Report): ValidConnectSubnet[] {
  if (s.cidr === undefined) report(`${at}.cidr`, `${at}.cidr: Required value`);
  if (s.networkPrefix === undefined) report(`${at}.networkPrefix`, `${at}.networkPrefix: Required value`);
  if (s.cidr === undefined || s.networkPrefix === undefined) return [];
  if (s.networkPrefix < 1)
    return (report(`${at}.networkPrefix`, `${at}.networkPrefix in body should be greater than or equal to 1`), []);
  if (s.networkPrefix > 127)
    return (report(`${at}.networkPrefix`, `${at}.networkPrefix in body should be less than or equal to 127`), []);
  const cidr = s.cidr.length > 43 ? failure('is longer than 43 characters') : parseCidr(s.cidr);
  if (!cidr.ok) return (report(`${at}.cidr`, `CIDR must be a valid network address ("${s.cidr}" ${cidr.why})`), []);
  const parsed = cidr.value;
  if (s.networkPrefix <= parsed.prefix)
    return (
      report(
        `${at}.networkPrefix`,
        `NetworkPrefix must be longer than the CIDR prefix length (${s.networkPrefix} <= ${parsed.prefix})`,
      ),
      []
    );
  if (parsed.family === 4 && s.networkPrefix >= 32)
    return (report(`${at}.networkPrefix`, 'NetworkPrefix must < 32 for ipv4 CIDR'), []);
  return [{ cidr: s.cidr, parsed, networkPrefix: s.networkPrefix }];
}

function checkConnectivity(values: string[] | undefined, report: Report): void {
  if (!checkCount(values, 'spec.connectivity', 2, report)) return;
  values!.forEach((v, i) => {
    if (v !== 'PodNetwork' && v !== 'ServiceNetwork')
      report(
        `spec.connectivity[${i}]`,
        `spec.connectivity[${i}]: Unsupported value: "${v}": supported values: "PodNetwork", "ServiceNetwork"`,
      );
  });
  if (new Set(values).size !== values!.length)
    report('spec.connectivity', 'connectivity cannot contain duplicate values');
}
