import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plan } from '../../../cli/commands/plan';
import { CliError } from '../../../cli/contract';
import { byIdentity, externalIds, fixtures, fixtureText, rowsOf, zonesOf } from './rowsHelpers';

type Tables = Record<string, Record<string, unknown>[]>;

describe('ovnk plan zones', () => {
  it('limits the document to --zone and fills it with network and connect rows by NB table', async () => {
    const result = await plan({ file: join(fixtures, 'blue-green.yaml'), zone: 'ovn-worker', output: 'json' });
    const zones = (result.document as { zones: Record<string, Tables> }).zones;
    expect(Object.keys(zones)).toEqual(['ovn-worker']);
    const routers = zones['ovn-worker']!.Logical_Router!.map((r) => r.name);
    expect(routers).toEqual(
      expect.arrayContaining(['connect_router_blue-green-connect', 'cluster_udn_blue.network_ovn_cluster_router']),
    );
    const blueSwitch = zones['ovn-worker']!.Logical_Switch!.find(
      (s) => s.name === 'cluster_udn_blue.network_ovn-worker',
    )!;
    expect(blueSwitch.load_balancer_group).toContain('cnc_svc_blue-green-connect');
  });

  it('counts rows per table and zone in the text output', async () => {
    const result = await plan({ file: join(fixtures, 'blue-green.yaml'), output: 'text' });
    expect(result.text).toMatch(/\nZONE +NB ROWS +PER TABLE\n/);
    expect(result.text).toMatch(
      /\novn-worker +103 +.*Load_Balancer_Group 7, Logical_Router 5, Logical_Router_Policy 4, .*Port_Group 4/,
    );
  });

  it('refuses an unknown --zone with exit 3 naming the zones that exist', async () => {
    const error = await plan({ file: join(fixtures, 'blue-green.yaml'), zone: 'nope', output: 'json' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(3);
    expect((error as CliError).message).toContain('ovn-control-plane, ovn-worker, ovn-worker2');
  });
});

describe('the central layout', () => {
  const central = zonesOf(fixtureText('colored-enterprise.yaml').replace('spec:\n', 'spec:\n  zones: central\n')).get(
    'central',
  )!;

  it('renders every node as local: full pairs for each Layer3 node, none bound to a chassis', () => {
    const ports = rowsOf(central, 'Logical_Router_Port');
    expect(ports).toHaveLength(2 * (2 * 3 + 1));
    for (const p of ports)
      expect((p.columns.options as Record<string, string> | undefined)?.['requested-chassis']).toBeUndefined();
  });

  it('appends :<node> to the id of a Layer3 policy, one per node on the shared cluster router, but not to a Layer2 one', () => {
    const id =
      'ovnkube-network-connect-controller:ClusterNetworkConnect:colored-enterprise:1:2:v4:cluster_udn_blue.network_ovn_cluster_router';
    for (const node of ['ovn-control-plane', 'ovn-worker', 'ovn-worker2']) {
      const policy = byIdentity(central, 'Logical_Router_Policy', `${id}:${node}`);
      expect(policy.columns.match).toBe(
        `inport == "rtos-cluster_udn_blue.network_${node}" && ip4.dst == 104.104.0.0/16`,
      );
      expect(externalIds(policy)['router-name']).toBe('cluster_udn_blue.network_ovn_cluster_router');
    }
    byIdentity(
      central,
      'Logical_Router_Policy',
      'ovnkube-network-connect-controller:ClusterNetworkConnect:colored-enterprise:3:1:v4:yellow_yellow.network_transit_router',
    );
  });
});
