/**
 * The cluster-wide settings of an Inventory from upstream's configmaps (namespace
 * `ovn-kubernetes` in upstream's helm chart): `ovn-config` (`net_cidr` as `cidr[/hostPrefix]`
 * comma-separated, `svc_cidr`, `mtu`: helm/ovn-kubernetes/templates/ovn-setup.yaml) and the
 * `ovnkube.conf` of `ovnkube-config` (gcfg: `[default] mtu`, `cluster-subnets`, `[kubernetes]
 * service-cidrs`, `[gateway] mode`, `v4-masquerade-subnet`, `v6-masquerade-subnet`: the flags
 * of config/config.go). ovnkube.conf wins where both say something. What neither says keeps
 * upstream's defaults (model/inventory.ts), and a note says so. Pure.
 */
import { parseCidr } from './cidr';

export interface ConfigMapData {
  name: string;
  data: Record<string, string>;
}

type Spec = Record<string, unknown>;

export function clusterSettings(configMaps: ConfigMapData[]): { spec: Spec; notes: string[] } {
  const data = (name: string) => configMaps.find((c) => c.name === name)?.data ?? {};
  const setup = data('ovn-config');
  const conf = parseGcfg(data('ovnkube-config')['ovnkube.conf'] ?? '');
  const spec: Spec = {};
  const notes: string[] = [];
  const clusterSubnets = cidrs(conf.default?.['cluster-subnets'] ?? setup.net_cidr);
  if (clusterSubnets.length > 0) spec.clusterSubnets = clusterSubnets;
  const serviceCIDRs = cidrs(conf.kubernetes?.['service-cidrs'] ?? setup.svc_cidr);
  if (serviceCIDRs.length > 0) spec.serviceCIDRs = serviceCIDRs;
  const mtu = Number(conf.default?.mtu ?? setup.mtu);
  if (Number.isInteger(mtu) && mtu > 0) spec.mtu = mtu;
  const mode = conf.gateway?.mode;
  if (mode === 'shared' || mode === 'local') spec.gatewayMode = mode;
  const masquerade = cidrs([conf.gateway?.['v4-masquerade-subnet'], conf.gateway?.['v6-masquerade-subnet']].join(','));
  if (masquerade.length > 0) spec.masqueradeSubnets = masquerade;
  for (const [key, what] of Object.entries(settingNames))
    if (spec[key] === undefined)
      notes.push(`the cluster's configmaps do not say its ${what}; upstream's default applies`);
  return { spec, notes };
}

const settingNames: Record<string, string> = {
  clusterSubnets: 'cluster subnets',
  serviceCIDRs: 'service CIDRs',
  mtu: 'MTU',
  gatewayMode: 'gateway mode',
  masqueradeSubnets: 'masquerade subnets',
};

/** `10.128.0.0/14/23,fd00::/48` -> the CIDRs (a host-prefix suffix dropped; bad entries skipped). */
function cidrs(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((part) => part.trim().split('/').slice(0, 2).join('/'))
    .filter((cidr) => cidr !== '' && parseCidr(cidr).ok);
}

/** gcfg (git-config style) as upstream's config.go reads it: `[section]`, `key = value`, `;`/`#` comments. */
export function parseGcfg(text: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/[;#].*$/, '').trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)\s*\]$/.exec(line);
    if (header) section = header[1]!.toLowerCase();
    const pair = /^([A-Za-z0-9-]+)\s*=\s*(.*)$/.exec(line);
    if (pair && section !== '') (out[section] ??= {})[pair[1]!.toLowerCase()] = pair[2]!.replace(/^"(.*)"$/, '$1');
  }
  return out;
}
