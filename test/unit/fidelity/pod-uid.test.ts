/**
 * Point 9 of issue 16: pod ports carry `iface-id-ver`, the pod UID (upstream's
 * addLogicalPortToNetwork; multihoming_test.go newExpectedSwitchPort expects
 * `"iface-id-ver": pod.podName`, its test pods' UID being their name). The Inventory's pods take
 * an optional `uid`; without one the option is left out.
 */
import { describe, expect, it } from 'vitest';
import { planOf, rowOf, TEST_NODE_CHASSIS, upstreamL3, zoneRows } from './plan';

describe('pod ports', () => {
  it('carry iface-id-ver from the Inventory pod uid, next to requested-chassis', () => {
    const rows = zoneRows(planOf(upstreamL3()), 'test-node');
    expect(rowOf(rows, 'Logical_Switch_Port', 'namespace1.blue.net_namespace1_mypod').options).toEqual({
      'requested-chassis': TEST_NODE_CHASSIS,
      'iface-id-ver': '7f4b2d9e-3c1a-4e5b-9d8c-2a6f1e0b3c4d',
    });
  });

  it('have no iface-id-ver when the Inventory gives no uid', () => {
    const rows = zoneRows(planOf(upstreamL3().replace(', uid: 7f4b2d9e-3c1a-4e5b-9d8c-2a6f1e0b3c4d', '')), 'test-node');
    expect(rowOf(rows, 'Logical_Switch_Port', 'namespace1.blue.net_namespace1_mypod').options).toEqual({
      'requested-chassis': TEST_NODE_CHASSIS,
    });
  });
});
