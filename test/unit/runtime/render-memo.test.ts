import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderConnect } from '../../../provider/connect/render';
import { renderConnectCached } from '../../../provider/connect/renderCache';
import { prepareZones } from '../../../provider/connect/zones';
import { allocateTopology, planTopology, type TopologyPlan } from '../../../provider/runtime/plan';
import { clearRenderMemos, renderMemoStats } from '../../../provider/runtime/zoneRows';
import type { RenderInput } from '../../../provider/topology/input';
import { renderNetworkKeyed } from '../../../provider/topology/render';
import { renderNetworkCached } from '../../../provider/topology/renderCache';
import { networkEndpoints } from '../../../provider/topology/services';
import {
  cudnsLabelled,
  gatewayNode,
  layer2,
  layer3,
  networkConnect,
  networkFor,
  ownedNetworks,
  yamlOf,
} from '../../support/objects';

// Issue 30.2: a zone rendered again after a one-network change renders only that network and the
// connects that select it (provider/topology/renderCache.ts, provider/connect/renderCache.ts). The
// memo must never answer with stale rows: what it gives equals a fresh render, and a change to
// anything a network's (or a connect's) rows read gives another key.

const joined = { labels: { joined: 'yes' } };
const pod = (name: string, namespace: string, node: number) => ({ name, namespace, node: `n${node}` });

const text = ({ redMtu = 1400, redCidr = '10.64.0.0/14' } = {}) =>
  ownedNetworks(
    'memo',
    {
      clusterSubnets: ['10.244.0.0/14'],
      nodes: [0, 1, 2].map(gatewayNode),
      pods: [pod('a', 'red', 0), pod('b', 'red', 1), pod('c', 'blue', 0), pod('d', 'blue', 2), pod('e', 'green', 1)],
    },
    networkFor('red', { ...layer3(redCidr, 26), layer3: { ...layer3(redCidr, 26).layer3, mtu: redMtu } }, joined),
    networkFor('blue', layer2(['10.130.0.0/16']), joined),
    networkFor('green', layer3('10.80.0.0/14', 26)),
  ) +
  '---\n' +
  yamlOf(
    networkConnect('both', {
      networkSelectors: [cudnsLabelled({ joined: 'yes' })],
      connectSubnets: [{ cidr: '192.168.0.0/16', networkPrefix: 20 }],
    }),
  );

function planned(source: string): TopologyPlan {
  const result = planTopology(source, undefined, { holdRows: true });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

function allocated() {
  const result = allocateTopology(text());
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.allocated;
}

/** The rows of a render, or the message it threw: a memo must throw what a fresh render throws. */
function outcome<T>(render: () => T): T | string {
  try {
    return render();
  } catch (error) {
    return `threw: ${(error as Error).message}`;
  }
}

beforeEach(() => clearRenderMemos());

describe('zones rendered again from the render memo', () => {
  it('equal a fresh render, every network and connect answered by the memo', () => {
    const first = planned(text());
    const rendered = renderMemoStats();
    expect(rendered.networks).toMatchObject({ hits: 0, misses: 3 * 3 });
    expect(rendered.connects).toMatchObject({ hits: 0, misses: 3 });
    const again = planned(text());
    expect(renderMemoStats().networks).toMatchObject({ hits: 3 * 3, misses: 3 * 3 });
    expect(renderMemoStats().connects).toMatchObject({ hits: 3, misses: 3 });
    expect(JSON.stringify(again.zones.map((z) => z.rows))).toBe(JSON.stringify(first.zones.map((z) => z.rows)));
  });

  // per zone: red renders again, blue and green come from the memo; the connect selects red and
  // reads its subnets (host subnets, connect slices), not its MTU
  it.each([
    ['MTU', { redMtu: 1300 }, 0],
    ['subnet', { redCidr: '10.72.0.0/14' }, 3],
  ])(
    'render only the changed network after a change of its %s, and the connect that reads it',
    (_what, change, connects) => {
      planned(text());
      const changed = planned(text(change));
      expect(renderMemoStats().networks).toMatchObject({ hits: 3 * 2, misses: 3 * 3 + 3 });
      expect(renderMemoStats().connects).toMatchObject({ hits: 3 - connects, misses: 3 + connects });
      clearRenderMemos();
      const fresh = planned(text(change));
      expect(JSON.stringify(changed.zones.map((z) => z.rows))).toBe(JSON.stringify(fresh.zones.map((z) => z.rows)));
      expect(JSON.stringify(changed.zones.map((z) => z.notes))).toBe(JSON.stringify(fresh.zones.map((z) => z.notes)));
    },
  );
});

/** A change to one thing a network's rows in a zone read, on a copy of its input. */
type Change = (input: RenderInput, pick: number) => void;

const relevant: Record<string, Change> = {
  'the cluster MTU': (i, k) => void (i.cluster.mtu = 1300 + k),
  'the gateway mode': (i) => void (i.cluster.gatewayMode = i.cluster.gatewayMode === 'shared' ? 'local' : 'shared'),
  'the network MTU': (i, k) => void (i.network.mtu = 1200 + k),
  'the network id': (i, k) => void (i.network.id = 100 + k),
  "a node's chassis": (i, k) => void (i.nodes[k % i.nodes.length]!.chassisId = `other-${k}`),
  "a node's gateway MAC": (i, k) => void (i.nodes[k % i.nodes.length]!.gateway!.mac = `0a:58:0a:00:01:0${k % 10}`),
  "a node's gateway next hop": (i, k) => void (i.nodes[k % i.nodes.length]!.gateway!.nextHops = [`172.18.0.${k + 9}`]),
  "a node's port range": (i, k) => void (i.nodes[k % i.nodes.length]!.ephemeralPortRange = `2000-${3000 + k}`),
  "a node's host subnet of the network": (i, k) =>
    void (i.nodes[k % i.nodes.length]!.hostSubnets![i.network.name] = [`10.${64 + (k % 3)}.200.0/26`]),
  'a pod of the network dropped': (i, k) => void i.pods!.splice(k % i.pods!.length, 1),
  "a pod's address": (i, k) => void (i.pods![k % i.pods!.length]!.ips = [`10.${64 + (k % 3)}.0.${k + 9}`]),
  'the zone': (i, k) => void (i.zone = { ...i.zone, name: `n${k % 3}`, localNodes: [`n${k % 3}`] }),
};

describe('the network render memo', () => {
  it('answers any changed input with what a fresh render gives, and never from the old key', () => {
    const inputs = allocated().inputs.zones.flatMap((z) => z.inputs);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: inputs.length - 1 }),
        fc.constantFrom(...Object.keys(relevant)),
        fc.nat(40),
        (which, change, pick) => {
          const input = inputs[which]!;
          clearRenderMemos();
          renderNetworkCached(input);
          const copy = structuredClone(input);
          relevant[change]!(copy, pick);
          if (JSON.stringify(copy) === JSON.stringify(input)) return;
          const cached = outcome(() => renderNetworkCached(copy));
          expect(renderMemoStats().networks).toMatchObject({ hits: 0, misses: 2 });
          expect(JSON.stringify(cached)).toBe(JSON.stringify(outcome(() => renderNetworkKeyed(copy))));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers from the memo when only another network changed', () => {
    const zone = allocated().inputs.zones[0]!;
    const [red, blue] = zone.inputs;
    const first = renderNetworkCached(red!);
    const copy = structuredClone(red!);
    copy.nodes[1]!.hostSubnets![blue!.network.name] = ['10.130.99.0/26'];
    copy.pods = [...copy.pods!];
    const hits = renderMemoStats().networks.hits;
    expect(renderNetworkCached(copy)).toBe(first);
    expect(renderMemoStats().networks.hits).toBe(hits + 1);
  });
});

describe('the connect render memo', () => {
  it('answers a connect whose network, node or zone changed with what a fresh render gives', () => {
    const { cluster, allocation, inputs } = allocated();
    const plan = prepareZones(cluster, allocation, networkEndpoints(inputs.zones[0]!.inputs));
    const connect = plan.connects[0]!;
    const layer3 = (c: typeof connect) => c.networks.find((n) => n.topology === 'layer3')!;
    const changes: Record<string, (c: typeof connect, n: typeof plan.nodes) => void> = {
      "a network's connect slice": (c) => void (c.networks[0]!.connectSubnets[0]!.base += 4096n),
      "a network's host subnet": (c) => void (Object.values(layer3(c).hostSubnets)[0]![0]!.base += 256n),
      "a network's activity": (c) => void (c.networks[0]!.activeNodes = ['n1']),
      'the tunnel key': (c) => void (c.tunnelKey += 1),
      "a node's chassis": (_c, n) => void (n[1]!.chassisId = 'moved'),
    };
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(changes)), fc.constantFrom(...plan.zones), (change, zone) => {
        clearRenderMemos();
        renderConnectCached(connect, plan.nodes, zone);
        const copy = structuredClone(connect);
        const nodesCopy = structuredClone(plan.nodes);
        changes[change]!(copy, nodesCopy);
        const cached = renderConnectCached(copy, nodesCopy, zone);
        expect(renderMemoStats().connects).toMatchObject({ hits: 0, misses: 2 });
        expect(JSON.stringify(cached)).toBe(JSON.stringify(renderConnect(copy, nodesCopy, zone)));
      }),
      { numRuns: 40 },
    );
  });
});
