/**
 * Two owners with networks on one Uplink bridge (issue 25 point 1), with packets: owner a's
 * egress-blue and owner b's egress-purple both leave ovn-worker through br-blue. Each owner
 * replaces and removes only its own flows (its cookie) and the shared ones (the shared MAC's
 * fan-out to every patch port, the host's and conntrack's) follow the networks the bridge holds:
 * after either owner is destroyed, in either order of applies, the other's pod still reaches
 * 203.0.113.1 through br-blue from ovn-worker's blue address, its `diff` is clean with
 * GatewayReady True, and once both are gone no flow of ours is left on the bridge.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import '../setup/lab';
import { ownerCookie, sharedCookie } from '../../provider/uplink/flows';
import { echoRequestsSeen, ourFlows, pingsAnswered } from './egress-helpers';
import { ovnk, syncChassis } from './networks-helpers';
import { bridgeMappings, closeNodes } from './uplink-helpers';

const lab = inject('lab');
const worker = () => lab.nodes.find((n) => n.name === 'ovn-worker')!;
let dir: string;

const uplink = `apiVersion: k8s.ovn.org/v1alpha1
kind: Uplink
metadata: {name: egress-blue}
spec:
  nodeConfigs:
  - {type: OVSBridge, nodeSelector: {matchLabels: {uplink.ovnk.io/group: a}}, hostInterfaceName: blue0}
  - {type: OVSBridge, nodeSelector: {matchLabels: {uplink.ovnk.io/group: b}}, hostInterfaceName: blueb0}
`;

/** Owner `owner`'s file: one CUDN on the blue Uplink with a pod on ovn-worker. */
function ownerFile(owner: string, network: string, cidr: string): string {
  const file = path.join(dir, `${owner}.yaml`);
  writeFileSync(
    file,
    `apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: ${owner}}
spec:
  ipFamilies: [IPv4]
  masqueradeSubnets: [169.254.0.0/17]
  namespaces: [{name: ${network}, labels: {egress: ${network}}}]
  pods: [{name: a, namespace: ${network}, node: ovn-worker}]
---
${uplink}---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: ${network}}
spec:
  namespaceSelector: {matchLabels: {egress: ${network}}}
  uplinks: [egress-blue]
  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: ${cidr}}]}}
`,
  );
  return file;
}

const owners = {
  'egress-a': { network: 'egress-blue', cidr: '10.61.0.0/16' },
  'egress-b': { network: 'egress-purple', cidr: '10.64.0.0/16' },
};
type Owner = keyof typeof owners;
const fileOf = (owner: Owner) => path.join(dir, `${owner}.yaml`);

function run(command: 'apply' | 'destroy' | 'diff', owner: Owner) {
  const result = ovnk(command, '-f', fileOf(owner), '--lab', lab.name, '-o', 'json');
  expect(result.status, `${command} ${owner}: ${result.stderr}`).toBe(0);
  return result;
}

/** Owner's pod reaches 203.0.113.1 through br-blue from ovn-worker's blue address (3 of 3 answered). */
async function egressWorks(owner: Owner): Promise<void> {
  let answered = 0;
  const seen = await echoRequestsSeen(lab, ['xblue', 'br0'], async () => {
    answered = pingsAnswered(lab, owners[owner].network, '203.0.113.1');
  });
  expect(answered, `${owner}'s pings answered`).toBe(3);
  expect(new Set(seen.xblue)).toEqual(new Set(['203.0.113.12 203.0.113.1']));
}

/** Owner's diff is clean, and GatewayReady True on its ovn-worker state. */
function diffClean(owner: Owner): void {
  const diff = run('diff', owner);
  expect(diff.json.uplinkDrift).toEqual([]);
  const state = diff.json.uplinkStates.find(
    (s: { metadata: { name: string } }) => s.metadata.name === 'egress-blue.ovn-worker',
  );
  expect(state.status.conditions.find((c: { type: string }) => c.type === 'GatewayReady')).toMatchObject({
    status: 'True',
  });
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'egress-owners-'));
  for (const [owner, { network, cidr }] of Object.entries(owners)) ownerFile(owner, network, cidr);
});

afterAll(async () => {
  for (const owner of Object.keys(owners) as Owner[]) ovnk('destroy', '-f', fileOf(owner), '--lab', lab.name);
  rmSync(dir, { recursive: true, force: true });
  await closeNodes();
});

const orders: [Owner, Owner, Owner][] = [
  ['egress-a', 'egress-b', 'egress-a'],
  ['egress-b', 'egress-a', 'egress-a'],
  ['egress-a', 'egress-b', 'egress-b'],
];

describe('two owners with networks on one Uplink bridge', () => {
  it.each(orders)(
    'apply %s, apply %s, destroy %s: the other keeps its egress, its flows and a clean diff, and the last destroy leaves no flow of ours',
    async (first, second, leaving) => {
      const kept = first === leaving ? second : first;
      run('apply', first);
      run('apply', second);
      syncChassis(lab);
      expect(await bridgeMappings(worker())).toContain(`cluster_udn_${owners[kept].network}:br-blue`);
      await egressWorks(first);
      await egressWorks(second);
      const keptFlows = await ourFlows(worker(), 'br-blue', `cookie=${ownerCookie(kept)}/-1`);
      // commonFlows' 6 of an IPv4 network, and uplinkHostServiceFlows' 4 for the one service CIDR
      // (host entry with the packet mark, reply to table 3, drop, table 2 dispatch)
      expect(keptFlows).toHaveLength(10);

      run('destroy', leaving);
      expect(await ourFlows(worker(), 'br-blue', `cookie=${ownerCookie(leaving)}/-1`)).toEqual([]);
      expect(await ourFlows(worker(), 'br-blue', `cookie=${ownerCookie(kept)}/-1`)).toEqual(keptFlows);
      // commonFlows' 5 shared ones and uplinkHostServiceFlows' table 3
      expect(await ourFlows(worker(), 'br-blue', `cookie=${sharedCookie}/-1`)).toHaveLength(6);
      await egressWorks(kept);
      diffClean(kept);

      run('destroy', kept);
      expect(await ourFlows(worker(), 'br-blue')).toEqual([]);
    },
    // five ovnk runs and four captures: each run takes 5-15 s on a busy machine
    240_000,
  );
});
