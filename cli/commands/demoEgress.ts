/**
 * The egress section of `ovnk demo --uplinks` (OKEP-6019, issue 20): applies stacks/egress.yaml
 * to the lab's Uplink bridges and pings, from one pod of each CUDN, the host on the segment its
 * traffic should leave on: blue's through br-blue, red's through br-red, green's (no Uplink)
 * through breth0. Each row names the bridge that carries the network's flows and the address its
 * egress is SNATed to, both read from the apply's typed Uplink section (the UplinkState's
 * address; the node's on breth0). Then destroys what it applied.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { type LabStatus, pingWithRetries, readState, syncChassis } from '../../lab';
import type { UplinkSection } from '../../provider/runtime/cli';
import { progress } from '../contract';
import { runApply } from './apply';
import { runDestroy } from './destroy';

export interface EgressRow {
  pod: string;
  node: string;
  to: string;
  /** The bridge whose flows carry the pod's network on its node (from the apply), and the one it should be. */
  bridge: string;
  expect: string;
  /** What the network's egress is SNATed to there. */
  source: string;
  got: 'reply' | 'blocked';
}

const PROBES = [
  { pod: 'egress-blue/a', network: 'cluster_udn_egress-blue', bridge: 'br-blue', to: () => '203.0.113.1' },
  { pod: 'egress-red/a', network: 'cluster_udn_egress-red', bridge: 'br-red', to: () => '198.51.100.1' },
  {
    pod: 'egress-green/a',
    network: 'cluster_udn_egress-green',
    bridge: 'breth0',
    to: (lab: LabStatus) => underlayGatewayOf(lab),
  },
];

const underlayGatewayOf = (lab: LabStatus): string => readState(lab.name)!.layout.underlayGateway;

/** stacks/egress.yaml of this checkout, from cli/commands or dist/cli/commands. */
export function egressFile(): string {
  const candidates = ['../../stacks', '../../../stacks'].map((dir) => path.resolve(__dirname, dir, 'egress.yaml'));
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error(`the egress topology is missing (looked for ${candidates.join(' and ')})`);
  return found;
}

/** The bridge carrying `network` on `node` and the address it SNATs to, from the typed section. */
function bridgeOf(section: UplinkSection | undefined, lab: LabStatus, node: string, network: string) {
  const flows = section?.flows[node];
  const bridge = flows?.ok ? flows.bridges.find((b) => b.networks.includes(network))?.bridge : undefined;
  const state = section?.uplinkStates.find((s) => s.spec.nodeName === node && s.status.ovsBridge?.name === bridge);
  const nodeIp = lab.nodes.find((n) => n.name === node)?.encapIp;
  return { bridge: bridge ?? 'none', source: state?.status.ipAddresses?.[0]?.split('/')[0] ?? nodeIp ?? '?' };
}

export function egressTable(rows: EgressRow[]): string {
  const line = (r: EgressRow) =>
    `  ${r.pod.padEnd(15)} ${r.node.padEnd(12)} -> ${r.to.padEnd(13)} via ${r.bridge.padEnd(8)} from ${r.source.padEnd(14)} ${r.got}`;
  return rows.map(line).join('\n');
}

/** Apply, ping through each bridge, destroy; `ok` when every probe was answered through a bridge. */
export async function egressSection(lab: LabStatus): Promise<{ rows: EgressRow[]; ok: boolean }> {
  const file = egressFile();
  const report = await runApply({ file, lab: lab.name });
  try {
    for (const zone of lab.zones) syncChassis({ name: lab.name, ovnRoot: lab.ovnRoot, nb: zone.nb });
    const rows = await Promise.all(
      PROBES.map(async (p) => {
        const [namespace, name] = p.pod.split('/');
        const pod = readState(lab.name)!.pods.find((x) => x.namespace === namespace && x.name === name)!;
        const to = p.to(lab);
        const replied = await pingWithRetries(pod.netns, to, { tries: 8, whileLabWorks: true });
        const via = bridgeOf(report.uplinks, lab, pod.node, p.network);
        return {
          pod: p.pod,
          node: pod.node,
          to,
          ...via,
          expect: p.bridge,
          got: replied ? 'reply' : 'blocked',
        } as EgressRow;
      }),
    );
    progress(`\n== egress through the gateway bridges (${path.basename(file)}) ==\n${egressTable(rows)}`);
    return { rows, ok: rows.every((r) => r.got === 'reply' && r.bridge === r.expect) };
  } finally {
    await runDestroy({ file, lab: lab.name }).catch((e: Error) => progress(`destroy failed: ${e.message}`));
  }
}
