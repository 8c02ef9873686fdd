import { describe, expect, it } from 'vitest';
import {
  driftFindings,
  failureFindings,
  findingLine,
  isDrift,
  isFailure,
  type UplinkRunResult,
} from '../../../provider/runtime/uplink';

const bridge = { bridge: 'br-blue', networks: ['cluster_udn_blue'], missing: 0, unexpected: 0, written: false };

function result(flows: UplinkRunResult['flows'], fdb: UplinkRunResult['fdb'] = {}): UplinkRunResult {
  return {
    problems: [],
    uplinks: [],
    uplinkStates: [],
    networks: {},
    nodes: [{ node: 'ovn-worker', desired: [] }],
    written: {},
    roundTrips: 0,
    vrf: {},
    vrfChanges: {},
    flows,
    fdb,
  };
}

describe("the findings of a node's gateway bridge flows", () => {
  it('say a bridge with ovnkube-node flows is left to it, which is neither drift nor a failure (issue 26 point 12)', () => {
    const run = result({
      'ovn-worker': { ok: true, bridges: [{ ...bridge, bridge: 'breth0', managedBy: 'ovnkube-node' }] },
    });
    const found = driftFindings(run);
    expect(found).toEqual([{ kind: 'flowsLeft', node: 'ovn-worker', bridge: 'breth0' }]);
    expect(found.some(isDrift) || found.some(isFailure)).toBe(false);
    expect(failureFindings(run)).toEqual([]);
    expect(findingLine(found[0]!)).toBe(
      "node ovn-worker: bridge breth0: gateway flows left to ovnkube-node (flows with its cookie 0xdeff105 are there; it replaces the bridge's flows every 15 s)",
    );
  });

  it('are drift, in words, when a bridge lacks planned flows or carries ours the plan does not want', () => {
    const found = driftFindings(
      result({
        'ovn-worker': {
          ok: true,
          bridges: [
            { ...bridge, missing: 4 },
            { ...bridge, bridge: 'breth0', networks: [], unexpected: 11 },
          ],
        },
      }),
    );
    expect(found.every(isDrift)).toBe(true);
    expect(found.map(findingLine)).toEqual([
      'node ovn-worker: bridge br-blue: 4 gateway flow(s) missing, 0 not planned',
      'node ovn-worker: bridge breth0: 0 gateway flow(s) missing, 11 not planned',
    ]);
  });

  it('are none when every bridge has exactly the planned flows', () => {
    expect(driftFindings(result({ 'ovn-worker': { ok: true, bridges: [bridge] } }))).toEqual([]);
  });

  it('are failures, not drift, when the flows could not be read or a patch port never came', () => {
    const found = failureFindings(
      result({
        'ovn-worker': { ok: true, bridges: [{ ...bridge, error: 'ports without an ofport on br-blue: patch-x' }] },
        'ovn-worker2': { ok: false, message: 'ovs-vsctl failed' },
      }),
    );
    expect(found.some(isDrift)).toBe(false);
    expect(found.map(findingLine)).toEqual([
      'node ovn-worker: bridge br-blue: gateway flows not in place: ports without an ofport on br-blue: patch-x',
      'node ovn-worker2: gateway flows not in place: ovs-vsctl failed',
    ]);
  });
});

describe("the findings of a node's static FDB entries", () => {
  const report = { bridge: 'br-blue', wanted: ['0a:00:00:00:00:01 on blue0 (VLAN 0)'], added: [], removed: [] };

  it('are drift naming the bridge and the entry when ours is missing or should be gone', () => {
    const run = result(
      {},
      {
        'ovn-worker': {
          ok: true,
          bridges: [{ ...report, missing: ['0a:00:00:00:00:01 on blue0 (VLAN 0)'], unexpected: [] }],
        },
      },
    );
    const found = driftFindings(run);
    expect(found.every(isDrift)).toBe(true);
    expect(found.map(findingLine)).toEqual([
      'node ovn-worker: bridge br-blue: static FDB entry 0a:00:00:00:00:01 on blue0 (VLAN 0) missing',
    ]);
    expect(failureFindings(run)).toEqual([]);
  });

  it('are failures naming the bridge and the reason when ovs-appctl failed', () => {
    const error = 'bridge br-blue: ovs-appctl fdb/show br-blue failed (exit 2): no such bridge';
    const found = failureFindings(
      result({}, { 'ovn-worker': { ok: true, bridges: [{ ...report, missing: [], unexpected: [], error }] } }),
    );
    expect(found.some(isDrift)).toBe(false);
    expect(found.map(findingLine)).toEqual([`node ovn-worker: static FDB entries not in place: ${error}`]);
  });
});
