/**
 * Preconfigured addresses of a Layer2 network (`defaultGatewayIPs`, `infrastructureSubnets`,
 * `reservedSubnets`). Upstream reads them only with `--enable-preconfigured-udn-addresses`
 * (util.IsPreconfiguredUDNAddressesEnabled): its NAD template copies them into the NAD then
 * (clustermanager/userdefinednetwork/template/net-attach-def-template.go), and newLayer2NetConfInfo
 * (util/multi_network.go) reads them for primary networks only. The Inventory's
 * `spec.enablePreconfiguredUDNAddresses` is that flag, off by default as upstream's. The CRD's CEL
 * rules (primary only, inside `subnets`, gateway IPs inside the infrastructure subnets, no
 * overlap, masked) are checked when the object is loaded (crd/), whatever the flag.
 */
import { cidrList } from './cidrList';
import type { FieldReader, Json } from './fields';

export interface PreconfiguredAddresses {
  /** The gateway address of each family (the CRD: one per subnet family). */
  defaultGatewayIPs?: string[];
  /** Where the gateway and management addresses come from; no pod gets one. */
  infrastructureSubnets?: string[];
  /** Kept out of automatic pod address assignment. */
  reservedSubnets?: string[];
}

export const preconfiguredFields = ['defaultGatewayIPs', 'infrastructureSubnets', 'reservedSubnets'] as const;

/** The preconfigured fields a Layer2 spec (at `at`, ending in `.`) gives; undefined when none. */
export function parsePreconfigured(
  r: FieldReader,
  config: Record<string, Json>,
  at: string,
): PreconfiguredAddresses | undefined {
  const found: PreconfiguredAddresses = {};
  const gateways = r.strings(config.defaultGatewayIPs, `${at}defaultGatewayIPs`);
  if (gateways) found.defaultGatewayIPs = gateways;
  for (const key of ['infrastructureSubnets', 'reservedSubnets'] as const)
    if (config[key] !== undefined && config[key] !== null) found[key] = cidrList(r, config[key], `${at}${key}`);
  return Object.keys(found).length > 0 ? found : undefined;
}

/** The fields of `given` that are set, in the CRD's order. */
export function givenFields(given: PreconfiguredAddresses | undefined): (keyof PreconfiguredAddresses)[] {
  return given ? preconfiguredFields.filter((f) => given[f] !== undefined) : [];
}
