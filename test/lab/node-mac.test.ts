/**
 * A node's breth0 MAC stays its host's (lab/node.ts, lab/uplinks.ts): only breth0 answers ARP for
 * the node address, and breth0's static FDB entry for that MAC survives an Uplink bridge's port
 * that carried the MAC going away. Either failing sent the other nodes' geneve for that node to
 * the wrong place, and every pod lost its traffic across nodes for the rest of the run (a run of
 * 2026-11-27: 15 failures from networks-layer2/3, connect-services, migration-layer2 and
 * egress-breth0, whose breth0 had learnt its own MAC on a patch port).
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { readState } from '../../lab';
import '../setup/lab';
import { arpAnswers, learnOnPortThatGoes } from './capture-helpers';
import { closeNodes, onNode } from './uplink-helpers';

const lab = inject('lab');
const worker = lab.nodes[0]!;
const layout = () => readState(lab.name)!.layout;
const hostEntry = (mac: string) => new RegExp(`^LOCAL\\s+0\\s+${mac}\\s+static\\s*$`, 'm');

/** Until the worker's datapath holds the flow of that frame: br-blue has switched it (NORMAL, learning). */
async function switched(mac: string): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const flows = await onNode(worker, 'ovs-appctl', 'dpctl/dump-flows');
    if (flows.includes(`eth(src=${mac},`) && flows.includes('eth_type(0x88b5)')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`br-blue on ${worker.name} never switched the frame from ${mac}`);
}

afterAll(() => closeNodes());

describe("a node's breth0 MAC", () => {
  it("is the only answer to an ARP request for the node address, so the other nodes' tunnels send to breth0", async () => {
    // ovs-vswitchd keeps the last answer it sees for a tunnel's next hop (tnl/neigh/show); with
    // Linux's defaults the node's eth0 and eth1 answered too, with MACs breth0 does not take
    const { fabricNamespace, underlayGateway } = layout();
    for (const node of lab.nodes) {
      const answers = await arpAnswers(fabricNamespace, 'br0', underlayGateway, node.encapIp);
      expect(answers.length, node.name).toBeGreaterThan(0);
      expect(new Set(answers), node.name).toEqual(new Set([node.gatewayMac]));
    }
  });

  it("stays breth0's static entry when a port of an Uplink bridge that carried the MAC goes", async () => {
    const mac = worker.gatewayMac!;
    const netns = layout().nodes.find((n) => n.name === worker.name)!.namespace;
    try {
      // what a gateway router sends from breth0's MAC through br-blue's patch port while its
      // network moves between the bridges (test/lab/egress.test.ts)
      await learnOnPortThatGoes(
        (...argv) => onNode(worker, ...argv),
        netns,
        'br-blue',
        mac,
        () => switched(mac),
      );
      expect(await onNode(worker, 'ovs-appctl', 'fdb/show', 'breth0')).toMatch(hostEntry(mac));
    } finally {
      // a failure here must not break the files after this one on the shared lab
      await onNode(worker, 'ovs-appctl', 'fdb/add', 'breth0', 'breth0', '0', mac);
    }
  });
});
