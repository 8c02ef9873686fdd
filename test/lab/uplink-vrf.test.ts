/**
 * VRF-Lite against the netns lab, whose kernel has no VRF devices: the lab's Inventory carries the
 * uplink group labels, `stacks/vrf-lite.yaml` plans cleanly with --lab (selection by those labels,
 * every node discovered), and blue's VRF is refused per node with a clear reason instead of crashing.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import '../setup/lab';
import { inventoryOf } from '../../lab/inventory';
import { UPLINK_GROUP_LABEL } from '../../lab/uplinks';

const lab = inject('lab');
const cli = path.resolve(__dirname, '../../dist/cli/main.js');
const stack = path.resolve(__dirname, '../../stacks/vrf-lite.yaml');

type Condition = { type: string; status: string; reason: string; message: string };
const conditionOf = (state: { status: { conditions: Condition[] } }, type: string) =>
  state.status.conditions.find((c) => c.type === type);

describe('VRF-Lite on the netns lab (no VRF in this kernel)', () => {
  it('the lab Inventory labels every node with its uplink group', () => {
    const nodes = inventoryOf(lab).spec.nodes;
    expect(nodes.map((n) => [n.id, n.labels[UPLINK_GROUP_LABEL]])).toEqual([
      [2, 'a'],
      [3, 'a'],
      [4, 'b'],
    ]);
  });

  it("plan --lab of the vrf-lite stack exits 0, resolves blue by group and refuses blue's VRF per node naming the kernel", () => {
    const result = spawnSync(process.execPath, [cli, 'plan', '-f', stack, '--lab', lab.name, '-o', 'json'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
    const json = JSON.parse(result.stdout) as Record<string, any>;
    expect(json.uplinkProblems).toEqual([]);
    const states = new Map(
      (
        json.uplinkStates as {
          metadata: { name: string };
          status: { hostInterfaceName: string; conditions: Condition[] };
        }[]
      ).map((s) => [s.metadata.name, s]),
    );
    const [first, second, third] = lab.nodes.map((n) => n.name);
    expect(states.get(`br-blue.${first}`)!.status.hostInterfaceName).toBe('blue0');
    expect(states.get(`br-blue.${third}`)!.status.hostInterfaceName).toBe('blueb0');
    // the lab's third node has a too-small blue uplink MTU on purpose
    expect(conditionOf(states.get(`br-blue.${third}`)!, 'Resolved')).toMatchObject({
      status: 'False',
      reason: 'MTUInvalid',
    });
    for (const node of [first, second]) {
      expect(conditionOf(states.get(`br-blue.${node}`)!, 'Resolved')).toMatchObject({ status: 'True' });
      expect(conditionOf(states.get(`br-blue.${node}`)!, 'GatewayReady')).toMatchObject({
        status: 'False',
        reason: 'UplinkVRFAttachmentFailed',
        message: expect.stringContaining('its kernel has no VRF support'),
      });
      expect(json.uplinkVrf[node].outcomes).toEqual([
        {
          cudn: 'blue',
          state: 'refused',
          reason: 'UplinkVRFAttachmentFailed',
          message: expect.stringContaining(`node ${node} cannot create VRF blue for CUDN blue`),
        },
        { cudn: 'red', state: 'default' },
      ]);
      expect(json.uplinkVrf[node].steps).toEqual([]);
    }
    expect(json.networks.cluster_udn_blue.conditions[0]).toMatchObject({
      type: 'UplinksReady',
      status: 'False',
      reason: 'UplinksNotReady',
    });
  });

  it('plan --lab in text says per node what VRF membership it found', () => {
    const result = spawnSync(process.execPath, [cli, 'plan', '-f', stack, '--lab', lab.name], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      `node ${lab.nodes[0]!.name}: VRF blue=refused UplinkVRFAttachmentFailed: node ${lab.nodes[0]!.name} cannot create VRF blue`,
    );
  });
});
