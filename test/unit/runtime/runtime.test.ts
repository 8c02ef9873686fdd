import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyState } from '../../../provider/alloc/state';
import type { DesiredRow } from '../../../provider/nb/desired';
import { nbSchema } from '../../../provider/nb/generated/nb';
import type { DatabaseSchema } from '../../../provider/ovsdb/schema';
import {
  adaptToServer,
  canonicalJson,
  dropForeignShared,
  mergeInventorySpec,
  parseState,
  planTopology,
  type RuntimeState,
  runtimeStateVersion,
  serializeState,
  StateError,
  stateWrite,
} from '../../../provider/runtime/cli';
import { COPP_PROTOCOLS, meterName, renderSharedRows } from '../../../provider/topology/shared';

const layer3File = readFileSync(path.resolve(__dirname, '../../fixtures/networks-layer3.yaml'), 'utf8');
const labNodes = `
  nodes: [{name: ovn-worker, id: 2, chassisId: c1}, {name: ovn-worker2, id: 3, chassisId: c2}, {name: ovn-worker3, id: 4, chassisId: c3}]
  zones: central`;
const withNodes = (text: string) => text.replace('  ipFamilies: [IPv4, IPv6]', `  ipFamilies: [IPv4, IPv6]${labNodes}`);

function planned(text = withNodes(layer3File)) {
  const result = planTopology(text);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

describe('the runtime state', () => {
  it('serializes with sorted keys, so equal states give equal text whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: 3 } })).toBe(
      '{"a":{"c":3,"d":[2,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('round-trips through its text', () => {
    const state: RuntimeState = {
      version: runtimeStateVersion,
      allocation: emptyState(),
      pods: { net: { 'ns/p': ['10.0.0.3'] } },
    };
    expect(parseState(serializeState(state), 'here')).toEqual(state);
  });

  it('refuses text that is not JSON or has another version, naming where it was read', () => {
    expect(() => parseState('{oops', 'NB_Global.external_ids["ovnk.io/state/x"]')).toThrow(
      /^NB_Global.external_ids\["ovnk.io\/state\/x"\] is not JSON/,
    );
    expect(() => parseState('{"version": 7}', 'key')).toThrow(
      new StateError('key has state version 7; this ovnk reads version 1'),
    );
  });

  it('rewrites the key only while it holds the text read, removes it the same way, and inserts NB_Global when there is none', () => {
    const holds = (text: string) => ({
      op: 'wait',
      table: 'NB_Global',
      where: [['external_ids', 'includes', ['map', [['ovnk.io/state/o', text]]]]],
      columns: [],
      until: '==',
      rows: [{}],
      timeout: 0,
    });
    const set = stateWrite('o', 'S', 'T', true);
    expect(set.operations).toEqual([
      holds('S'),
      {
        op: 'mutate',
        table: 'NB_Global',
        where: [],
        mutations: [['external_ids', 'delete', ['set', ['ovnk.io/state/o']]]],
      },
      {
        op: 'mutate',
        table: 'NB_Global',
        where: [],
        mutations: [['external_ids', 'insert', ['map', [['ovnk.io/state/o', 'T']]]]],
      },
    ]);
    expect(set.guards).toEqual(['NB_Global.external_ids["ovnk.io/state/o"] is unchanged since it was read']);
    expect(stateWrite('o', 'S', undefined, true).operations.map((op) => op.op)).toEqual(['wait', 'mutate']);
    expect(stateWrite('o', undefined, 'T', true).operations).toEqual([
      { ...holds('T'), where: [['external_ids', 'excludes', ['map', [['ovnk.io/state/o', 'T']]]]] },
      {
        op: 'mutate',
        table: 'NB_Global',
        where: [],
        mutations: [['external_ids', 'insert', ['map', [['ovnk.io/state/o', 'T']]]]],
      },
      holds('T'),
    ]);
    expect(stateWrite('o', undefined, 'T', false).operations).toEqual([
      { op: 'insert', table: 'NB_Global', row: { external_ids: ['map', [['ovnk.io/state/o', 'T']]] } },
    ]);
  });
});

describe('planTopology', () => {
  it('plans one central zone with the rows of both networks, the shared rows and four pods', () => {
    const plan = planned();
    expect(plan.problems).toEqual([]);
    expect(plan.zones.map((z) => z.name)).toEqual(['central']);
    const routers = plan.zones[0]!.rows.filter((r) => r.table === 'Logical_Router').map((r) => r.columns.name);
    expect(routers).toContain('cluster_udn_blue_ovn_cluster_router');
    expect(routers).toContain('red_net_ovn_cluster_router');
    expect(plan.zones[0]!.rows.filter((r) => r.table === 'Copp')).toHaveLength(1);
    expect(plan.zones[0]!.pods.map((p) => `${p.namespace}/${p.name}`)).toEqual(['blue/a', 'blue/b', 'red/a', 'red/b']);
  });

  it('is stable: planning again from its own state gives the same rows and state', () => {
    const first = planned();
    const again = planTopology(withNodes(layer3File), first.state);
    expect(again.ok && again.plan.zones).toEqual(first.zones);
    expect(again.ok && serializeState(again.plan.state)).toBe(serializeState(first.state));
  });

  it('gives Layer3 pods addresses with their host subnet prefix and the host subnet gateway', () => {
    const blueA = planned().zones[0]!.pods.find((p) => p.namespace === 'blue' && p.name === 'a')!;
    expect(blueA).toMatchObject({
      ifaceId: 'blue.blue_blue_a',
      addresses: ['10.10.0.3/24', 'fd10::3/64'],
      gateways: ['10.10.0.1', 'fd10::1'],
      mac: '0a:58:0a:0a:00:03',
      mtu: 1400,
    });
  });

  it('returns input problems instead of a plan for a bad file', () => {
    const result = planTopology(
      layer3File.replace('hostSubnet: 24}, {cidr: "fd10::/60"', 'hostSubnet: 8}, {cidr: "fd10::/60"'),
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.map((p) => p.path)).toEqual([
      'ClusterUserDefinedNetwork/blue: spec.network.layer3.subnets[0]',
    ]);
  });

  it('plans a Localnet network in use next to the primary one: its switch and localnet port in every zone', () => {
    const localnet =
      '---\napiVersion: k8s.ovn.org/v1\nkind: ClusterUserDefinedNetwork\nmetadata: {name: ln}\nspec:\n  namespaceSelector: {matchLabels: {network: blue}}\n  network: {topology: Localnet, localnet: {role: Secondary, physicalNetworkName: phys, subnets: [10.50.0.0/24]}}\n';
    const plan = planned(withNodes(layer3File) + localnet);
    expect(plan.problems).toEqual([]);
    const port = plan.zones[0]!.rows.find((r) => r.columns.name === 'cluster_udn_ln_ovn_localnet_port');
    expect(port?.columns).toMatchObject({ type: 'localnet', options: { network_name: 'phys' } });
  });
});

describe('server adaptation and shared rows', () => {
  const acl: DesiredRow = { table: 'ACL', columns: { priority: 1, tier: 2, external_ids: { 'k8s.ovn.org/id': 'x' } } };
  const nat: DesiredRow = {
    table: 'NAT',
    columns: { match: 'eth.dst == 0a:00:00:00:00:01', external_ids: { 'ovnk.io/key': 'n1' } },
  };
  const router: DesiredRow = { table: 'Logical_Router', columns: { name: 'r', nat: ['n1'] } };
  const without = (table: string, column: string): DatabaseSchema => {
    const tables = {
      ...nbSchema.tables,
      [table]: { ...nbSchema.tables[table]!, columns: { ...nbSchema.tables[table]!.columns } },
    };
    delete tables[table]!.columns[column];
    return { ...nbSchema, version: '7.0.0', tables };
  };

  it('keeps ACL tier and NAT match when the server has them', () => {
    expect(adaptToServer([acl, nat, router], nbSchema)).toEqual({ rows: [acl, nat, router], notes: [] });
  });

  it('leaves out ACL tier when the server has no tiers', () => {
    expect(adaptToServer([acl], without('ACL', 'tier')).rows[0]!.columns).not.toHaveProperty('tier');
  });

  it('leaves out NAT rows with a match, and the router references to them, when the server has no NAT match', () => {
    const adapted = adaptToServer([nat, router], without('NAT', 'match'));
    expect(adapted.rows).toEqual([{ table: 'Logical_Router', columns: { name: 'r', nat: [] } }]);
    expect(adapted.notes[0]).toMatch(/^1 NAT rows with a match \(management-port SNAT\) left out/);
  });

  it('uses shared rows someone else made: ours are dropped, a meter band only when no meter we keep holds it', () => {
    const shared = renderSharedRows();
    const bands = (rows: typeof shared) => rows.filter((r) => r.table === 'Meter_Band').length;
    const kept = dropForeignShared(shared, {
      copps: new Set(['ovnkube-default']),
      meters: new Set(['arp-rate-limiter']),
    });
    expect(kept.some((r) => r.table === 'Copp')).toBe(false);
    expect(kept.filter((r) => r.table === 'Meter')).toHaveLength(shared.filter((r) => r.table === 'Meter').length - 1);
    // the other Copp meters still hold the one band they share with arp-rate-limiter
    expect(bands(kept)).toBe(bands(shared));
    const noCopp = dropForeignShared(shared, {
      copps: new Set(['ovnkube-default']),
      meters: new Set(COPP_PROTOCOLS.map(meterName)),
    });
    expect(bands(noCopp)).toBe(bands(shared) - 1);
  });
});

describe('filling an inventory from the lab', () => {
  const lab = {
    zones: 'central',
    nodes: [
      { name: 'n1', id: 2, chassisId: 'c1' },
      { name: 'n2', id: 3, chassisId: 'c2' },
    ],
    targets: { zones: { central: { nb: 'unix:lab' } }, nodes: { n1: { host: 'h1' } } },
  };

  it('takes the lab nodes and targets when the file has none', () => {
    expect(mergeInventorySpec({ namespaces: [] }, lab)).toEqual({ ...lab, namespaces: [] });
  });

  it('lets the file win where it sets something, node by node and target by target', () => {
    const merged = mergeInventorySpec(
      {
        zones: 'per-node',
        nodes: [{ name: 'n1', chassisId: 'mine' }],
        targets: { zones: { central: { nb: 'tcp:1.2.3.4:6641' } } },
      },
      lab,
    );
    expect(merged.zones).toBe('per-node');
    expect(merged.nodes).toEqual([{ name: 'n1', id: 2, chassisId: 'mine' }]);
    expect(merged.targets).toEqual({ zones: { central: { nb: 'tcp:1.2.3.4:6641' } }, nodes: { n1: { host: 'h1' } } });
  });
});

describe('pod plugs', () => {
  it('plugs only the pods of the zone local nodes', () => {
    const plan = planTopology(withNodes(layer3File).replace('  zones: central', '  zones: per-node'));
    expect(plan.ok).toBe(true);
    const zones = plan.ok ? plan.plan.zones : [];
    expect(zones.map((z) => [z.name, z.pods.map((p) => `${p.namespace}/${p.name}`)])).toEqual([
      ['ovn-worker', ['blue/a']],
      ['ovn-worker2', ['blue/b', 'red/a']],
      ['ovn-worker3', ['red/b']],
    ]);
  });
});
