import { describe, expect, it } from 'vitest';
import type { Problem } from '../../../provider/model/problem';
import { parseRouteAdvertisements } from '../../../provider/model/routeAdvertisements';
import {
  membershipChanges,
  parseLinks,
  parseRoutes,
  planVrf,
  routeAddArgv,
  type VrfHostFacts,
  type VrfIntent,
} from '../../../provider/uplink/vrf';

const auto = (vrf: string) => ({ kind: 'vrf' as const, vrf, targets: ['auto'], by: ['ra'] });
const dflt = { kind: 'default' as const, why: 'not-advertised' as const };
const intent = (cudn: string, iface: string, domain: VrfIntent['domain'], networkId = 2): VrfIntent => ({
  cudn,
  networkId,
  hostInterface: iface,
  bridge: iface,
  domain,
});

function facts(over: Partial<VrfHostFacts> = {}): VrfHostFacts {
  return {
    node: 'n1',
    ipv6: false,
    memberships: [],
    managementInterface: 'eth0',
    links: [
      { name: 'eth0', index: 2 },
      { name: 'br-blue', index: 3 },
    ],
    routes: [
      {
        family: 4,
        table: 254,
        dst: '192.0.2.0/24',
        dev: 'br-blue',
        protocol: 2,
        scope: 253,
        prefsrc: '192.0.2.10',
        onlink: false,
      },
      {
        family: 4,
        table: 254,
        dst: '198.51.100.0/24',
        gateway: '192.0.2.1',
        dev: 'br-blue',
        protocol: 4,
        onlink: false,
      },
      { family: 4, table: 254, dst: '203.0.113.0/24', dev: 'br-blue', protocol: 4, scope: 253, onlink: false },
      { family: 4, table: 254, dst: '10.9.0.0/16', gateway: '192.0.2.1', dev: 'br-blue', protocol: 186, onlink: false },
    ],
    ...over,
  };
}
const argvs = (steps: { argv: string[] }[]) => steps.map((s) => s.argv.join(' '));

describe('VRF membership plan', () => {
  it('creates the VRF, marks it, enslaves, and restores moved routes without gateway first, skipping kernel and BGP routes', () => {
    const plan = planVrf(facts(), [intent('blue', 'br-blue', auto('blue'))], 'o');
    expect(argvs(plan.steps).slice(0, 4)).toEqual([
      'ip link add blue type vrf table 100002',
      'ip link set dev blue alias ovnk.io/owner=o',
      'ip link set dev blue up',
      'ip link set dev br-blue master blue',
    ]);
    expect(argvs(plan.steps).slice(4, 6)).toEqual([
      'ip -4 route add 203.0.113.0/24 dev br-blue proto 4 scope 253 table 100002',
      'ip -4 route add 198.51.100.0/24 via 192.0.2.1 dev br-blue proto 4 table 100002',
    ]);
    expect(plan.steps[6]!.stdin).toBe('{"interface":"br-blue","vrf":"blue","cudn":"blue","owner":"o"}\n');
    expect(plan.steps).toHaveLength(7);
  });

  it("uses the table of the network's management port when it exists, and sets keep_addr_on_down with IPv6", () => {
    const plan = planVrf(
      facts({ ipv6: true, links: [...facts().links, { name: 'ovn-k8s-mp2', index: 9 }] }),
      [intent('blue', 'br-blue', auto('blue'))],
      'o',
    );
    expect(argvs(plan.steps)).toContain('ip link add blue type vrf table 1009');
    expect(argvs(plan.steps)).toContain('sysctl -w net.ipv6.conf.br-blue.keep_addr_on_down=1');
  });

  it('removes OVN-K managed default routes from an existing VRF table before enslaving', () => {
    const f = facts({ links: [...facts().links, { name: 'blue', index: 5, kind: 'vrf', table: 1005 }] });
    f.routes.push({
      family: 4,
      table: 1005,
      dst: 'default',
      gateway: '192.0.2.1',
      dev: 'br-blue',
      protocol: 85,
      onlink: false,
    });
    expect(argvs(planVrf(f, [intent('blue', 'br-blue', auto('blue'))], 'o').steps)[0]).toBe(
      'ip -4 route del default via 192.0.2.1 dev br-blue proto 85 table 1005',
    );
  });

  it('refuses the management interface with a reason naming it', () => {
    const plan = planVrf(facts(), [intent('blue', 'eth0', auto('blue'))], 'o');
    expect(plan.steps).toEqual([]);
    expect(plan.outcomes[0]).toMatchObject({ state: 'refused', reason: 'UplinkVRFAttachmentFailed' });
    expect(plan.outcomes[0]!.message).toContain("eth0 into VRF blue on node n1: it is the node's management interface");
  });

  it('reports a missing host interface and a non-VRF device named like the VRF', () => {
    expect(planVrf(facts(), [intent('blue', 'nope', auto('blue'))], 'o').outcomes[0]!.message).toBe(
      'host interface nope does not exist on node n1',
    );
    const clash = facts({ links: [...facts().links, { name: 'blue', index: 7, kind: 'dummy' }] });
    expect(planVrf(clash, [intent('blue', 'br-blue', auto('blue'))], 'o').outcomes[0]!.message).toContain(
      'a dummy device of that name exists',
    );
  });

  it('releases only memberships we recorded, and deletes our VRF once nothing uses it', () => {
    const enslaved = facts({
      links: [
        { name: 'eth0', index: 2 },
        { name: 'br-blue', index: 3, master: 'blue' },
        { name: 'blue', index: 5, kind: 'vrf', table: 100002, alias: 'ovnk.io/owner=o' },
      ],
      routes: [
        {
          family: 4,
          table: 100002,
          dst: '198.51.100.0/24',
          gateway: '192.0.2.1',
          dev: 'br-blue',
          protocol: 4,
          onlink: false,
        },
      ],
      memberships: [{ interface: 'br-blue', vrf: 'blue', cudn: 'blue', owner: 'o' }],
    });
    expect(argvs(planVrf(enslaved, [intent('blue', 'br-blue', dflt)], 'o').steps)).toEqual([
      'ip link set dev br-blue nomaster',
      'ip -4 route add 198.51.100.0/24 via 192.0.2.1 dev br-blue proto 4 table 254',
      'rm -f /run/ovnk/vrf/br-blue.json',
      'ip link del dev blue',
    ]);
    expect(planVrf({ ...enslaved, memberships: [] }, [intent('blue', 'br-blue', dflt)], 'o').steps).toEqual([]);
    expect(planVrf(enslaved, [intent('blue', 'br-blue', dflt)], 'someone-else').steps).toEqual([]);
  });

  it('marks the steps that only keep our records, so a stale record is no membership change', () => {
    const enslave = planVrf(facts(), [intent('blue', 'br-blue', auto('blue'))], 'o');
    expect(membershipChanges(enslave)).toEqual(
      enslave.steps.slice(0, 6).map((s) => s.summary), // all but the record written last
    );
    expect(enslave.steps[6]!.summary).toBe("record that we made br-blue's membership of blue");
    // our record says br-blue is in blue, but someone released it: only the record is forgotten
    const released = facts({ memberships: [{ interface: 'br-blue', vrf: 'blue', cudn: 'blue', owner: 'o' }] });
    const plan = planVrf(released, [intent('blue', 'br-blue', dflt)], 'o');
    expect(plan.steps.map((s) => s.summary)).toEqual(['forget the membership record of br-blue']);
    expect(membershipChanges(plan)).toEqual([]);
  });

  it('releases a membership whose CUDN is gone from the node', () => {
    const enslaved = facts({
      links: [
        { name: 'eth0', index: 2 },
        { name: 'br-blue', index: 3, master: 'blue' },
        { name: 'blue', index: 5, kind: 'vrf', table: 100002, alias: 'ovnk.io/owner=o' },
      ],
      memberships: [{ interface: 'br-blue', vrf: 'blue', cudn: 'blue', owner: 'o' }],
    });
    expect(argvs(planVrf(enslaved, [], 'o').steps)).toEqual([
      'ip link set dev br-blue nomaster',
      'rm -f /run/ovnk/vrf/br-blue.json',
      'ip link del dev blue',
    ]);
  });

  it('under a conflict plans nothing, not even the release of an existing membership', () => {
    const enslaved = facts({
      links: [
        { name: 'eth0', index: 2 },
        { name: 'br-blue', index: 3, master: 'blue' },
        { name: 'blue', index: 5, kind: 'vrf', table: 100002, alias: 'ovnk.io/owner=o' },
      ],
      memberships: [{ interface: 'br-blue', vrf: 'blue', cudn: 'blue', owner: 'o' }],
    });
    const plan = planVrf(enslaved, [intent('blue', 'br-blue', auto('blue')), intent('red', 'br-blue', dflt, 3)], 'o');
    expect(plan.steps).toEqual([]);
    expect(plan.outcomes.map((o) => o.state)).toEqual(['conflict', 'conflict']);
  });
});

describe('host facts from ip -j', () => {
  it('links carry their master, VRF table and alias', () => {
    const json =
      '[{"ifindex":5,"ifname":"blue","linkinfo":{"info_kind":"vrf","info_data":{"table":10}},"ifalias":"ovnk.io/owner=o"},{"ifindex":3,"ifname":"d0","master":"blue"}]';
    expect(parseLinks(json)).toEqual([
      { name: 'blue', index: 5, kind: 'vrf', table: 10, alias: 'ovnk.io/owner=o' },
      { name: 'd0', index: 3, master: 'blue' },
    ]);
  });

  it('routes default to the main table and protocol boot, typed routes are skipped, and multipath hops survive into argv', () => {
    const json =
      '[{"dst":"default","gateway":"10.0.2.2","dev":"eth0","flags":[]},{"type":"2","dst":"10.0.2.15","dev":"eth0","table":"255","protocol":"2"},{"dst":"10.1.0.0/16","protocol":"4","flags":[],"nexthops":[{"gateway":"192.0.2.1","dev":"br-blue","weight":1,"flags":["onlink"]},{"gateway":"192.0.2.2","dev":"eth1","weight":2,"flags":[]}]}]';
    const routes = parseRoutes(json, 4);
    expect(routes).toHaveLength(2);
    expect(routes[0]).toEqual({
      family: 4,
      table: 254,
      dst: 'default',
      gateway: '10.0.2.2',
      dev: 'eth0',
      protocol: 3,
      onlink: false,
    });
    expect(routeAddArgv(routes[1]!, 7).join(' ')).toBe(
      'ip -4 route add 10.1.0.0/16 nexthop via 192.0.2.1 dev br-blue weight 1 onlink nexthop via 192.0.2.2 dev eth1 weight 2 proto 4 table 7',
    );
  });
});

describe('RouteAdvertisements validation', () => {
  const doc = (spec: unknown) => ({
    index: 0,
    apiVersion: 'k8s.ovn.org/v1',
    kind: 'RouteAdvertisements',
    metadata: { name: 'ra', labels: {}, annotations: {} },
    ref: 'RouteAdvertisements/ra',
    body: { spec } as Record<string, unknown>,
  });
  const good = {
    targetVRF: 'auto',
    advertisements: ['PodNetwork'],
    nodeSelector: {},
    frrConfigurationSelector: { matchLabels: { r: 'blue' } },
    networkSelectors: [
      {
        networkSelectionType: 'ClusterUserDefinedNetworks',
        clusterUserDefinedNetworkSelector: { networkSelector: { matchLabels: { t: 'blue' } } },
      },
    ],
  };

  it("the OKEP's example parses without problems", () => {
    const problems: Problem[] = [];
    expect(parseRouteAdvertisements(doc(good), problems)).toMatchObject({
      name: 'ra',
      targetVRF: 'auto',
      advertisements: ['PodNetwork'],
    });
    expect(problems).toEqual([]);
  });

  it('PodNetwork with a non-empty nodeSelector breaks the CRD rule', () => {
    const problems: Problem[] = [];
    parseRouteAdvertisements(doc({ ...good, nodeSelector: { matchLabels: { a: 'b' } } }), problems);
    expect(problems).toEqual([
      expect.objectContaining({ reason: 'InvalidSpec', path: 'RouteAdvertisements/ra: spec.nodeSelector' }),
    ]);
  });

  it('unknown or repeated advertisements, a bad selection type and a bad target are named by field and value', () => {
    const problems: Problem[] = [];
    parseRouteAdvertisements(doc({ ...good, advertisements: ['PodNetwork', 'PodNetwork'] }), problems);
    parseRouteAdvertisements(doc({ ...good, advertisements: ['Pods'] }), problems);
    parseRouteAdvertisements(doc({ ...good, networkSelectors: [{ networkSelectionType: 'Everything' }] }), problems);
    parseRouteAdvertisements(doc({ ...good, targetVRF: 'has space' }), problems);
    expect(problems.map((p) => p.path)).toEqual([
      'RouteAdvertisements/ra: spec.advertisements',
      'RouteAdvertisements/ra: spec.advertisements[0]',
      'RouteAdvertisements/ra: spec.networkSelectors[0].networkSelectionType',
      'RouteAdvertisements/ra: spec.targetVRF',
    ]);
    expect(problems[1]!.message).toContain('"Pods"');
  });
});
