import { describe, expect, it } from 'vitest';
import { conflictsWithOthers, freePins, takenByOthers } from '../../../provider/alloc/others';
import { planTopology, type TopologyPlan } from '../../../provider/runtime/cli';
import type { OtherOwners } from '../../../provider/runtime/cli';
import { chassisNode, layer3AndLayer2 } from '../../support/worlds';

type Pins = Record<string, string>;

/** Owner `owner` with a Layer3 network and a Layer2 one (a primary Layer2 gets a transit router tunnel key). */
const topology = (owner: string, l3: string, l2: string, pin?: Pins, l2Pin?: Pins) =>
  layer3AndLayer2(owner, [l3, l2], [chassisNode(1, 'c1'), chassisNode(2, 'c2')], [pin, l2Pin]);

function plan(text: string, others?: OtherOwners, previous?: TopologyPlan['state']): TopologyPlan {
  const result = planTopology(text, previous, { others });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

describe('allocation beside the other owners of a Northbound', () => {
  const a = plan(topology('a', 'blue', 'green'));
  const others = { a: a.state.allocation };

  it('alone, two owners get the same network ids and tunnel keys (what the issue found)', () => {
    const b = plan(topology('b', 'red', 'yellow'));
    expect(Object.values(b.allocation.networkIds).sort()).toEqual(Object.values(a.allocation.networkIds).sort());
    expect(conflictsWithOthers(b.state.allocation, others)).not.toEqual([]);
  });

  it("takes the other owners' network ids and tunnel keys as taken", () => {
    const b = plan(topology('b', 'red', 'yellow'), others);
    expect(b.problems).toEqual([]);
    expect(b.allocation.networkIds).toEqual({ cluster_udn_red: 3, cluster_udn_yellow: 4 });
    expect(Object.values(b.state.allocation.tunnelKeys.keys)).not.toContain(
      a.state.allocation.tunnelKeys.keys['transit-router/cluster_udn_green'],
    );
    expect(conflictsWithOthers(b.state.allocation, others)).toEqual([]);
  });

  it('moves a value of its own from before that another owner holds, and keeps the rest', () => {
    const alone = plan(topology('b', 'red', 'yellow'));
    const b = plan(topology('b', 'red', 'yellow'), others, alone.state);
    expect(b.allocation.networkIds).toEqual({ cluster_udn_red: 3, cluster_udn_yellow: 4 });
    expect(conflictsWithOthers(b.state.allocation, others)).toEqual([]);
  });

  it('refuses a pinned network id another owner holds, naming that owner and the annotation', () => {
    const pinned = topology('b', 'red', 'yellow', { 'k8s.ovn.org/network-id': '1' });
    const b = plan(pinned, others);
    expect(b.problems).toEqual([
      {
        reason: 'OwnerConflict',
        object: 'ClusterUserDefinedNetwork/red',
        path: 'ClusterUserDefinedNetwork/red: metadata.annotations["k8s.ovn.org/network-id"]',
        message:
          'network id 1 is pinned for cluster_udn_red but owner "a" (network "cluster_udn_blue") holds it in this Northbound: pin another one',
      },
    ]);
  });

  it('names each value held and by whom', () => {
    const taken = takenByOthers(others);
    expect(taken.networkIds.get(1)).toBe('owner "a" (network "cluster_udn_blue")');
    expect([...taken.tunnelKeys.values()]).toEqual(['owner "a" (transit-router/cluster_udn_green)']);
  });

  const keysPin = (keys: string): Pins => ({ 'k8s.ovn.org/tunnel-keys': keys });
  const theirs = a.state.allocation.tunnelKeys.keys['transit-router/cluster_udn_green']!;

  it('refuses a pinned transit router tunnel key another owner holds, naming that owner and the annotation', () => {
    const b = plan(topology('b', 'red', 'yellow', undefined, keysPin(`[16711687,${theirs}]`)), others);
    expect(b.problems).toEqual([
      {
        reason: 'OwnerConflict',
        object: 'ClusterUserDefinedNetwork/yellow',
        path: 'ClusterUserDefinedNetwork/yellow: metadata.annotations["k8s.ovn.org/tunnel-keys"]',
        message: `metadata.annotations["k8s.ovn.org/tunnel-keys"] [16711687,${theirs}] pins tunnel key ${theirs}, which owner "a" (transit-router/cluster_udn_green) holds in this Northbound: pin another one`,
      },
    ]);
  });

  it("gives the transit router a free pinned tunnel key, and refuses one whose switch key is not the network id's", () => {
    const pinned = plan(topology('b', 'red', 'yellow', undefined, keysPin('[16711685,16716000]')));
    expect(pinned.problems).toEqual([]);
    expect(pinned.allocation.networkIds.cluster_udn_yellow).toBe(2);
    expect(pinned.state.allocation.tunnelKeys.keys['transit-router/cluster_udn_yellow']).toBe(16716000);
    const wrong = plan(topology('b', 'red', 'yellow', undefined, keysPin('[16711690,16716000]')));
    expect(wrong.problems.map((p) => [p.reason, p.message])).toEqual([
      [
        'InvalidSpec',
        'metadata.annotations["k8s.ovn.org/tunnel-keys"] [16711690,16716000] starts with 16711690, but network id 2 makes the switch key 16711685',
      ],
    ]);
  });

  it('names, for a stack that allocated without seeing the others, the pins that avoid every collision', () => {
    const alone = plan(topology('b', 'red', 'yellow'));
    expect(freePins(alone.state.allocation, others)).toEqual([
      'on cluster_udn_red metadata.annotations["k8s.ovn.org/network-id"]: "3"',
      `on cluster_udn_yellow metadata.annotations["k8s.ovn.org/network-id"]: "4" and metadata.annotations["k8s.ovn.org/tunnel-keys"]: "[16711687,${theirs + 1}]"`,
    ]);
    // the pins named, applied by a plan that does not see the others, collide with nothing
    const redPin = { 'k8s.ovn.org/network-id': '3' };
    const yellowPin = { 'k8s.ovn.org/network-id': '4', 'k8s.ovn.org/tunnel-keys': `[16711687,${theirs + 1}]` };
    const pinned = plan(topology('b', 'red', 'yellow', redPin, yellowPin));
    expect(pinned.problems).toEqual([]);
    expect(conflictsWithOthers(pinned.state.allocation, others)).toEqual([]);
  });

  it('keeps, in the pins it names, the values no other owner holds', () => {
    const one = plan(topology('c', 'red', 'yellow', { 'k8s.ovn.org/network-id': '9' }));
    expect(freePins(one.state.allocation, others)).toEqual([
      'on cluster_udn_red metadata.annotations["k8s.ovn.org/network-id"]: "9"',
      `on cluster_udn_yellow metadata.annotations["k8s.ovn.org/network-id"]: "3" and metadata.annotations["k8s.ovn.org/tunnel-keys"]: "[16711686,${theirs + 1}]"`,
    ]);
  });
});
