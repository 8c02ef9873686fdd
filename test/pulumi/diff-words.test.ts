/**
 * Preview diffs in words (issue 29.6): ClusterAllocations, ZoneRows and ConnectRouter say which
 * network, connect, node or zone changes and whether it replaces the resource. Inputs come from
 * ClusterAllocations' own check through @pulumi/pulumi's dynamic-provider host (no Northbound is
 * needed to check or diff). The host of @pulumi/pulumi 3.248 forwards a diff's changes, replaces
 * and deleteBeforeReplace but not its detailedDiff (cmd/dynamic-provider/index.js, `diff`), so the
 * words are read from the same kind the serialized shim loads (`require("ovnk-pulumi/runtime")`
 * from the consumer project), beside what the host answers. DiffChanges: 2 some.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestHost } from '../support/hostFixture';
import { dynamicUrn, linkedConsumer, type Props } from '../support/pulumiHost';
import { topologyArgs } from './fixtures';

const OWNER = 'ovnk-pulumi.diff-words';
const { host, check, shim } = useTestHost(['ClusterAllocations', 'ZoneRows', 'ConnectRouter'], () => ({}));

type Kind = { diff(id: string, olds: Props, news: Props): Promise<Props> };
let kinds: Record<string, Kind>;
/** The state version a create writes: stored outputs carry it (olds of a real diff are outputs). */
let version: number;
let consumer: ReturnType<typeof linkedConsumer>;
beforeAll(() => {
  consumer = linkedConsumer();
  const runtime = createRequire(join(consumer.dir, 'package.json'))('ovnk-pulumi/runtime');
  [kinds, version] = [runtime.pulumiKinds, runtime.SCHEMA_VERSION];
});
afterAll(() => consumer.remove());

const before = topologyArgs('colored-enterprise', 'per-node');
/** blue's subnet moved, node-4 added, the connect's subnets moved. */
const after = structuredClone(before);
const blue = after.networks.find((n) => n.metadata.name === 'blue-network')!;
(blue.spec as { network: { layer3: { subnets: unknown[] } } }).network.layer3.subnets = [
  { cidr: '110.110.0.0/16', hostSubnet: 24 },
];
after.inventory.spec.nodes = [...(after.inventory.spec.nodes ?? []), { name: 'node-4' }];
after.connects[0]!.spec.connectSubnets = [{ cidr: '172.31.0.0/16', networkPrefix: 24 }];
const CONNECT = after.connects[0]!.metadata.name;

const clusterUrn = dynamicUrn('ClusterAllocations', 'words-allocations');
const topology = (args: typeof before) => ({
  owner: `${OWNER}/cluster`,
  inventory: args.inventory,
  networks: args.networks,
  connects: args.connects,
});

describe('preview diffs in words', () => {
  let olds: Props;
  let news: Props;
  beforeAll(async () => {
    olds = { ...(await check('ClusterAllocations', clusterUrn, {}, topology(before))), schemaVersion: version };
    news = await check('ClusterAllocations', clusterUrn, olds, topology(after));
  });

  it('ClusterAllocations names the changed network, the new node and its zone, and the connect; the host forwards that it changes', async () => {
    const reply = await host.diff('id', clusterUrn, olds, news);
    expect(reply.changes).toBe(2);
    expect(reply.replaces).toEqual([]);
    // the 3.248 host drops detailedDiff (when an SDK forwards it, this fails and the README's limit goes)
    expect(reply.detailedDiff).toBeUndefined();
    const { detailedDiff } = await kinds.ClusterAllocations!.diff('id', olds, news);
    expect(detailedDiff).toEqual({
      'networks[blue-network]': { kind: 'update', inputDiff: true },
      [`connects[${CONNECT}]`]: { kind: 'update', inputDiff: true },
      'nodes[node-4]': { kind: 'add', inputDiff: true },
      'zones[node-4]': { kind: 'add', inputDiff: true },
    });
  });

  it("a zone's ZoneRows names the network, the connect and the node its rows change for, and does not replace", async () => {
    const zone = (checked: Props) => ({
      schemaVersion: version,
      __provider: shim.ZoneRows,
      owner: `${OWNER}/zone/node-1`,
      zone: 'node-1',
      slice: (checked.slices as { zone: Props }).zone,
    });
    const urn = dynamicUrn('ZoneRows', 'words-zone-node-1');
    const reply = await host.diff('id', urn, zone(olds), zone(news));
    expect(reply).toMatchObject({ changes: 2, replaces: [], deleteBeforeReplace: false });
    const { detailedDiff } = await kinds.ZoneRows!.diff('id', zone(olds), zone(news));
    expect(detailedDiff).toMatchObject({
      'networks[cluster_udn_blue-network]': { kind: 'update', inputDiff: true },
      [`connects[${CONNECT}]`]: { kind: 'update', inputDiff: true },
      'nodes[node-4]': { kind: 'add', inputDiff: true },
    });
    expect(Object.keys(detailedDiff as object).some((k) => k.includes('green'))).toBe(false);
  });

  it("a ZoneRows by reference (as the Cluster makes it) names the network and the connect from the catalog's part digests, and the nodes as one part", async () => {
    const zone = (checked: Props) => {
      const { summary, digest } = (checked.slices as { zone: { summary: Props; digest: string } }).zone;
      return {
        schemaVersion: version,
        __provider: shim.ZoneRows,
        owner: `${OWNER}/zone/node-1`,
        zone: 'node-1',
        slice: { summary, digest, owner: `${OWNER}/cluster` },
      };
    };
    const urn = dynamicUrn('ZoneRows', 'words-zone-node-1');
    expect(await host.diff('id', urn, zone(olds), zone(news))).toMatchObject({ changes: 2, replaces: [] });
    expect((await host.diff('id', urn, zone(olds), zone(olds))).changes).toBe(1);
    const { detailedDiff } = await kinds.ZoneRows!.diff('id', zone(olds), zone(news));
    expect(detailedDiff).toEqual({
      'networks[cluster_udn_blue-network]': { kind: 'update', inputDiff: true },
      [`connects[${CONNECT}]`]: { kind: 'update', inputDiff: true },
      nodes: { kind: 'update', inputDiff: true },
    });
  });

  it('a ConnectRouter whose connectSubnets changed says the connect is replaced, and the host asks for a delete before the replace', async () => {
    const router = (checked: Props, args: typeof before) => ({
      schemaVersion: version,
      __provider: shim.ConnectRouter,
      owner: `${OWNER}/connect/${CONNECT}`,
      zone: 'central',
      connect: CONNECT,
      connectSubnets: args.connects[0]!.spec.connectSubnets,
      slice: (checked.slices as { connects: Record<string, Props> }).connects[CONNECT],
    });
    const urn = dynamicUrn('ConnectRouter', 'words-connect');
    // ConnectRouters are the central layout's: its slices hold the connect's
    const central = (args: typeof before) => ({
      ...args,
      inventory: { ...args.inventory, spec: { ...args.inventory.spec, zones: 'central' as const } },
    });
    const centralOlds = await check('ClusterAllocations', clusterUrn, {}, topology(central(before)));
    const centralNews = await check('ClusterAllocations', clusterUrn, centralOlds, topology(central(after)));
    const [a, b] = [router(centralOlds, before), router(centralNews, after)];
    expect(await host.diff('id', urn, a, b)).toMatchObject({
      changes: 2,
      replaces: ['connectSubnets'],
      deleteBeforeReplace: true,
    });
    const { detailedDiff } = await kinds.ConnectRouter!.diff('id', a, b);
    expect(detailedDiff).toMatchObject({
      connectSubnets: { kind: 'updateReplace', inputDiff: true },
      [`connects[${CONNECT}]`]: { kind: 'updateReplace', inputDiff: true },
    });
  });

  it('an unchanged resource says nothing', async () => {
    expect(await kinds.ClusterAllocations!.diff('id', olds, olds)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });
});
