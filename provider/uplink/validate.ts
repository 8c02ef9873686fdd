/**
 * Validation of Uplink objects (the CRD's schema: 1..64 nodeConfigs, type OVSBridge, interface
 * names of 1..15 characters without `/` or white space, selectors Kubernetes can convert) and of
 * CUDN `spec.uplinks` (one DNS label, primary Layer2/Layer3 only, not with EVPN, shared gateway
 * mode, the Uplink must exist, and immutable: a change replaces the CUDN). Every problem at once,
 * each naming the field, the value and the reason. Pure.
 */
import { uplinksOf } from '../model/cudn';
import type { Inventory } from '../model/inventory';
import type { Network } from '../model/network';
import { type LabelSelector, selectorShapeErrors } from '../model/selector';
import type { Uplink } from '../model/uplink';
import { type UplinkProblem, uplinkProblem } from './problems';

export const maxNodeConfigs = 64;
const interfaceNamePattern = /^[^/\s]+$/;
const dnsLabelPattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const labelValuePattern = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const labelNamePattern = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const dnsSubdomainPattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why a host interface name is refused by the CRD, or undefined. */
export function interfaceNameProblem(name: string): string | undefined {
  if (name.length < 1 || name.length > 15) return `must be 1 to 15 characters long (it has ${name.length})`;
  if (!interfaceNamePattern.test(name)) return 'must not contain "/" or white space';
  return undefined;
}

/** Why a label key is not a Kubernetes qualified name, or undefined. */
export function labelKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const [prefix, name] = slash < 0 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
  if (prefix !== undefined && (prefix.length > 253 || !dnsSubdomainPattern.test(prefix)))
    return 'has a prefix that is not a DNS subdomain';
  if (name.length === 0 || name.length > 63 || !labelNamePattern.test(name))
    return 'is not a label name (1..63 alphanumerics, "-", "_", "." inside)';
  return undefined;
}

function labelValueProblem(value: string): string | undefined {
  return value.length <= 63 && labelValuePattern.test(value)
    ? undefined
    : 'is not a label value (at most 63 alphanumerics, "-", "_", "." inside)';
}

/** Upstream's LabelSelectorAsSelector errors of one selector, as `<field>: <why>` texts. */
export function selectorProblems(selector: LabelSelector, field: string): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    const why = labelKeyProblem(key) ?? labelValueProblem(value);
    if (why) out.push(`${field}.matchLabels key "${key}" value "${value}" ${why}`);
  }
  (selector.matchExpressions ?? []).forEach((req, i) => {
    const why = labelKeyProblem(req.key) ?? (req.values ?? []).map(labelValueProblem).find((w) => w !== undefined);
    if (why) out.push(`${field}.matchExpressions[${i}] key "${req.key}" ${why}`);
  });
  for (const { index, message } of selectorShapeErrors(selector))
    out.push(`${field}.matchExpressions[${index}]: ${message}`);
  return out;
}

export function validateUplink(uplink: Uplink): UplinkProblem[] {
  const problems: UplinkProblem[] = [];
  const add = (field: string, message: string) =>
    problems.push(uplinkProblem('InvalidSpec', uplink.ref, field, message));
  const count = uplink.nodeConfigs.length;
  if (count < 1 || count > maxNodeConfigs)
    add('spec.nodeConfigs', `spec.nodeConfigs has ${count} entries: an Uplink needs 1 to ${maxNodeConfigs}`);
  uplink.nodeConfigs.forEach((config, i) => {
    const at = `spec.nodeConfigs[${i}]`;
    if (config.type !== 'OVSBridge')
      add(`${at}.type`, `${at}.type "${config.type}" is not supported: the only type is OVSBridge`);
    const why = interfaceNameProblem(config.hostInterfaceName);
    if (why) add(`${at}.hostInterfaceName`, `${at}.hostInterfaceName "${config.hostInterfaceName}" ${why}`);
    for (const message of selectorProblems(config.nodeSelector, `${at}.nodeSelector`))
      add(`${at}.nodeSelector`, `nodeConfig ${i} has invalid nodeSelector: ${message}`);
  });
  return problems;
}

/** The CUDN's CRD rules on spec.uplinks, then the cluster-level refusals of upstream's UplinksReady. */
export function validateNetworkUplinks(
  network: Network,
  inventory: Inventory,
  uplinks: ReadonlyMap<string, Uplink>,
): UplinkProblem[] {
  const names = uplinksOf(network);
  if (names === undefined || network.kind !== 'ClusterUserDefinedNetwork') return [];
  const problems: UplinkProblem[] = [];
  const add = (reason: UplinkProblem['reason'], field: string, message: string) =>
    problems.push(uplinkProblem(reason, network.ref, field, message));
  if (names.length !== 1)
    add('InvalidSpec', 'spec.uplinks', `spec.uplinks has ${names.length} entries: exactly one Uplink may be named`);
  names.forEach((name, i) => {
    if (name.length > 253 || !dnsLabelPattern.test(name))
      add(
        'InvalidSpec',
        `spec.uplinks[${i}]`,
        `spec.uplinks[${i}] "${name}" is not a DNS label (lowercase alphanumerics and "-", no dots)`,
      );
  });
  if (network.role !== 'Primary' || network.topology === 'Localnet')
    add(
      'InvalidSpec',
      'spec.uplinks',
      `spec.uplinks is supported only for primary Layer2 and Layer3 networks (this one is ${network.role.toLowerCase()} ${network.topology})`,
    );
  if (network.transport === 'EVPN')
    add('UplinkUnsupportedTransport', 'spec.uplinks', 'spec.uplinks is not supported with EVPN transport');
  if (inventory.gatewayMode !== 'shared')
    add(
      'UplinkUnsupportedGatewayMode',
      'spec.uplinks',
      `Uplink requires shared gateway mode, got ${inventory.gatewayMode}`,
    );
  const missing = names.find((n) => !uplinks.has(n));
  if (missing !== undefined)
    add('UplinkNotFound', `spec.uplinks[${names.indexOf(missing)}]`, `Uplink ${missing} is missing`);
  return problems;
}

/**
 * `spec.uplinks` is immutable upstream: a change means the CUDN is deleted and recreated, which
 * is what a plan against the previous state must say (a Pulumi diff: replace).
 */
export function uplinksReplaced(
  previous: readonly string[] | undefined,
  current: readonly string[] | undefined,
): boolean {
  return (previous ?? []).join(',') !== (current ?? []).join(',');
}
