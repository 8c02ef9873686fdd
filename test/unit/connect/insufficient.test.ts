/**
 * Issue 26 point 2: a connect that selects fewer than two networks is planned as upstream plans
 * it, with InsufficientNetworks as a warning. Upstream's cluster manager allocates its tunnel key
 * and the subnets of the networks there are (clustermanager/networkconnect/controller_test.go
 * "1. CNC created with 0 matching networks only has tunnel ID annotation"); ovnkube-controller
 * makes `connect_router_<name>` without ports when no network is allocated and the one
 * network's ports and routes, without reroute policies, when one is
 * (ovn/controller/networkconnect/controller_test.go "should not create ports, policies and
 * routes when CNC has no subnet annotation", "should create ports and routes when CNC has only
 * one allocated network").
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { plan } from '../../../cli/commands/plan';
import { takeWarnings } from '../../../cli/warnings';
import { connectSubnetAnnotation, connectTunnelKeyAnnotation } from '../../../provider/model/cnc';
import { allocateTopology } from '../../../provider/runtime/plan';
import { pulumiKinds } from '../../../provider/runtime/pulumi';
import { yamlOf } from '../../support/objects';
import { rowsOf, zonesOf } from './rowsHelpers';
import { cnc, labInventory, numberedLayer3, namespaces } from './world';

const chassis = { nodes: [0, 1].map((i) => ({ name: `node-${i}`, chassisId: `chassis-${i}` })) };
const world = (networks: object[]) =>
  yamlOf(labInventory({ namespaces: namespaces(2), inventory: chassis }), ...networks, cnc('c'));

function allocated(text: string) {
  const outcome = allocateTopology(text);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return outcome.allocated.allocation.connects.c!;
}

describe('a connect selecting fewer than two networks', () => {
  it('with none: is accepted with a tunnel key and no subnet annotation, and warns', () => {
    const c = allocated(world([]));
    expect(c.accepted).toBe(true);
    expect(c.problems).toEqual([]);
    expect(c.tunnelKey).toBeGreaterThan(0);
    expect(c.networks).toEqual({});
    expect(Object.keys(c.annotations)).toEqual([connectTunnelKeyAnnotation]);
    expect((c.warnings ?? []).map((w) => [w.reason, w.message])).toEqual([
      [
        'InsufficientNetworks',
        'no network is selected, minimum 2 networks required for connection: the connect router is made and networks join it as they are selected',
      ],
    ]);
  });

  it('with none: renders the connect router alone, without ports or routes, in every zone', () => {
    const zones = zonesOf(world([]));
    expect([...zones.keys()]).toEqual(['node-0', 'node-1']);
    for (const zone of zones.values()) {
      expect(rowsOf(zone, 'Logical_Router').map((r) => [r.columns.name, r.columns.options])).toEqual([
        ['connect_router_c', { 'requested-tnl-key': String(allocated(world([])).tunnelKey) }],
      ]);
      // besides it only the shared Copp and meters its copp column names
      expect(zone.rows.filter((r) => r.table !== 'Logical_Router' && !r.shared)).toEqual([]);
    }
  });

  it('with one: allocates its subnet and renders its ports and routes, but no reroute policy', () => {
    const text = world([numberedLayer3(0)]);
    const c = allocated(text);
    expect(c.accepted).toBe(true);
    expect(c.networks).toEqual({
      layer3_1: expect.objectContaining({ network: 'cluster_udn_net-0', subnets: { ipv4: '192.168.0.0/24' } }),
    });
    expect(JSON.parse(c.annotations[connectSubnetAnnotation]!)).toEqual({ layer3_1: { ipv4: '192.168.0.0/24' } });
    expect((c.warnings ?? []).map((w) => w.reason)).toEqual(['InsufficientNetworks']);
    const zone = zonesOf(text).get('node-0')!;
    // node-0's local pair plus node-1's remote crtor- port, one route per node
    expect(rowsOf(zone, 'Logical_Router_Port').map((r) => r.columns.name)).toEqual([
      'crtor-c_cluster_udn_net-0_node-0',
      'crtor-c_cluster_udn_net-0_node-1',
      'rtocr-cluster_udn_net-0_node-0_c',
    ]);
    expect(rowsOf(zone, 'Logical_Router_Static_Route')).toHaveLength(2);
    expect(rowsOf(zone, 'Logical_Router_Policy')).toEqual([]);
  });
});

describe('ovnk plan with such a connect', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ovnk-insufficient-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0, notes the warning for stderr and the document, and marks the connect in JSON and text', async () => {
    const file = join(dir, 'one.yaml');
    writeFileSync(file, world([numberedLayer3(0)]));
    takeWarnings();
    const json = await plan({ file, output: 'json' });
    expect(json.exitCode).toBe(0);
    const warning = {
      reason: 'InsufficientNetworks',
      path: 'ClusterNetworkConnect/c: spec.networkSelectors',
      message: expect.stringContaining('only 1 network is selected'),
    };
    expect(takeWarnings()).toEqual([{ ...warning, object: 'ClusterNetworkConnect/c' }]);
    const document = json.document as { ok: boolean; connects: Record<string, { warnings: unknown[] }> };
    expect(document.ok).toBe(true);
    expect(document.connects.c!.warnings).toEqual([warning]);
    const text = (await plan({ file, output: 'text' })).text!;
    expect(text).toMatch(/\nc +accepted, InsufficientNetworks +\d+/);
    expect(text).not.toContain('Problems');
  });
});

describe('the Pulumi check with such a connect', () => {
  it('passes, and its allocations carry the warning the NetworkConnect component logs', async () => {
    const [inventory, network, connect] = parseAllDocuments(world([numberedLayer3(0)])).map((d) => d.toJS());
    const checked = await pulumiKinds.ClusterAllocations.check(
      {},
      { owner: 'o', inventory, networks: [network], connects: [connect] },
    );
    expect(checked.failures).toBeUndefined();
    const summary = (
      checked.inputs!.allocations as { connects: Record<string, { accepted: boolean; warnings: unknown }> }
    ).connects.c!;
    expect(summary.accepted).toBe(true);
    expect(summary.warnings).toEqual([
      expect.objectContaining({
        reason: 'InsufficientNetworks',
        path: 'ClusterNetworkConnect/c: spec.networkSelectors',
      }),
    ]);
  });
});
