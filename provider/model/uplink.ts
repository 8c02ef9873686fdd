/**
 * Uplink (k8s.ovn.org/v1alpha1): the per-node selection table of OKEP-6019 - which host interface
 * (and through it which pre-provisioned OVS bridge) a CUDN's gateway uses on each node. Parsing
 * checks field types only; the CRD's rules (counts, name shapes, selectors) are
 * provider/uplink/validate.ts.
 */
import { FieldReader, type Json } from './fields';
import type { LoadedDocument } from './load';
import type { Problem } from './problem';
import type { LabelSelector } from './selector';

export const uplinkApiVersion = 'k8s.ovn.org/v1alpha1';

export interface UplinkNodeConfig {
  /** `OVSBridge`, the only value the CRD allows; other text is kept for validation to name. */
  type: string;
  nodeSelector: LabelSelector;
  hostInterfaceName: string;
}

export interface Uplink {
  /** `Uplink/<name>`: the object part of problem paths. */
  ref: string;
  name: string;
  nodeConfigs: UplinkNodeConfig[];
}

export function parseUplink(doc: LoadedDocument, problems: Problem[]): Uplink | undefined {
  const r = new FieldReader(doc.ref, problems);
  const spec = r.record(doc.body.spec, 'spec') ?? r.missing('spec');
  if (!spec) return undefined;
  const items = r.list(spec.nodeConfigs, 'spec.nodeConfigs') ?? r.missing('spec.nodeConfigs');
  if (!items) return undefined;
  const nodeConfigs = items.flatMap((item, i) => parseNodeConfig(r, item, `spec.nodeConfigs[${i}]`));
  return { ref: doc.ref, name: doc.metadata.name, nodeConfigs };
}

function parseNodeConfig(r: FieldReader, value: Json, at: string): UplinkNodeConfig[] {
  const map = r.record(value, at) ?? r.missing(at);
  if (!map) return [];
  const type = r.string(map.type, `${at}.type`) ?? r.missing(`${at}.type`);
  const nodeSelector = r.selector(map.nodeSelector, `${at}.nodeSelector`) ?? r.missing(`${at}.nodeSelector`);
  const hostInterfaceName =
    r.string(map.hostInterfaceName, `${at}.hostInterfaceName`) ?? r.missing(`${at}.hostInterfaceName`);
  if (type === undefined || nodeSelector === undefined || hostInterfaceName === undefined) return [];
  return [{ type, nodeSelector, hostInterfaceName }];
}
