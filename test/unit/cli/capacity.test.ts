/**
 * `ovnk capacity` under the CLI contract: the forecast as one JSON document (or text) on stdout,
 * exit 0, 1 when the plan itself is refused, 3 for unusable input. The forecast's arithmetic is
 * proven against the planner in test/unit/alloc/capacity.test.ts; here the command's numbers for
 * the OKEP's colored-enterprise are checked by hand from its objects.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOf, ovnk } from '../../support/cli';
import { repoRoot } from '../../support/dist';

const colored = join(repoRoot, 'test', 'fixtures', 'colored-enterprise.yaml');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ovnk-capacity-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ovnk capacity', () => {
  it("prints colored-enterprise's forecast as one JSON document: every range, network and connect", () => {
    const run = ovnk(['capacity', '-f', colored, '-o', 'json']);
    expect(run.code).toBe(0);
    const forecast = documentOf(run);
    expect(forecast.ok).toBe(true);
    expect(forecast.ranges.nodeIds).toEqual({ first: 2, last: 5000, used: 3, free: 4996 });
    expect(forecast.ranges.networkIds).toMatchObject({ first: 1, last: 4095, used: 3, free: 4092 });
    const blue = forecast.networks.find((n: any) => n.name === 'cluster_udn_blue-network');
    // 103.103.0.0/16 in /24s: 256; fd00:103::/60 in /64s: 16; three nodes hold one of each
    expect(blue.hostSubnets.map((h: any) => [h.cidr, h.total, h.used, h.free])).toEqual([
      ['103.103.0.0/16', 256, 3, 253],
      ['fd00:103::/60', 16, 3, 13],
    ]);
    const yellow = forecast.networks.find((n: any) => n.name === 'yellow_yellow-network');
    expect(yellow).toMatchObject({ topology: 'Layer2', hostSubnets: [] });
    const [connect] = forecast.connects;
    // 192.168.0.0/16 p24: 256 slices; blue and green take one each, yellow's /31 block borrows a third
    expect(connect.slices[0]).toMatchObject({
      cidr: '192.168.0.0/16',
      total: 256,
      used: 3,
      layer3: 2,
      layer2Blocks: 1,
    });
    expect(connect.layer2Blocks[0]).toEqual({ block: '192.168.2.0/24', size: 128, used: 1, free: 127 });
    expect(connect.highestPortKey).toMatchObject({ limit: 32767 });
    // a /24 slice reserves 256 port keys per index but holds 128 /31 pairs: node ids below 128
    expect(connect).toMatchObject({ maxNodes: 256, nodeIdsPerSlice: 128 });
    expect(connect.moreNodes.message).toContain('holds node ids below 128');
    expect(forecast.growth.nodes.more).toBe(13);
    const refusedBy = { reason: 'ConnectSubnetExhausted', ref: 'ClusterNetworkConnect/colored-enterprise' };
    expect(forecast.growth.layer3Networks).toMatchObject({ more: 125, limits: [refusedBy] });
    // Layer2 networks take /31s of borrowed blocks: only the network ids bound them, said once
    expect(forecast.growth.layer2Networks).toMatchObject({ more: 4092, limits: [{ reason: 'IdsExhausted' }] });
    expect(forecast.growth.layer2Networks.limits[0]).not.toHaveProperty('ref');
    expect(forecast.growth.networks).toMatchObject({ more: 125, limits: [refusedBy] });
    // the refused network is named by the slice owner and network id it would get
    expect(forecast.growth.layer3Networks.limits[0].message).toContain(
      'port tunnel key 32773 of network layer3_129 (new Layer3 network number 126) on node ovn-worker2',
    );
  });

  it('prints the same forecast for people as tables, each limit said once, under the growth it bounds', () => {
    const run = ovnk(['capacity', '-f', colored]);
    expect(run.code).toBe(0);
    const tables = run.stdout.split('\n\n');
    const headed = (header: RegExp) => tables.find((t) => header.test(t.split('\n')[0]!))?.split('\n') ?? [];
    expect(headed(/^RANGE +VALUES +USED +FREE$/)).toContainEqual(
      expect.stringMatching(/^node ids +2\.\.5000 +3 +4996$/),
    );
    expect(headed(/^NETWORK +TOPOLOGY +SUBNET +PER NODE/)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^cluster_udn_blue-network +Layer3 +103\.103\.0\.0\/16 +\/24 +3 +253 +13$/),
        expect.stringMatching(/^ +fd00:103::\/60 +\/64 +3 +13$/),
      ]),
    );
    expect(headed(/^CONNECT +LAYER3 NODE IDS/)).toContainEqual(
      expect.stringMatching(/^colored-enterprise +below 128 +513 of 32767 \(layer2_3\) +123 +125 +4092$/),
    );
    const growth = headed(/^GROWING BY +MORE +THEN REFUSED$/);
    expect(growth[1]).toMatch(/^nodes +13 +HostSubnetsExhausted ClusterUserDefinedNetwork\/blue-network: /);
    expect(growth).toContainEqual(expect.stringMatching(/^Layer3 networks +125 +ConnectSubnetExhausted /));
    expect(growth).toContainEqual(expect.stringMatching(/^Layer2 networks +4092 +IdsExhausted: 4092 network ids /));
    // every limit's sentence appears once in the whole text
    const sentences = run.stdout.split('\n').filter((l) => /Exhausted/.test(l));
    expect(new Set(sentences).size).toBe(sentences.length);
    expect(run.stdout.match(/takes 125 more Layer3 networks/g)).toHaveLength(1);
    expect(run.stdout).not.toContain('of network the next');
    expect(run.stderr).toBe('');
  });

  it('exits 1 with the problems beside the forecast when the plan is refused', () => {
    const file = join(dir, 'refused.yaml');
    writeFileSync(file, readFileSync(colored, 'utf8').replace('cidr: 192.168.0.0/16', 'cidr: 103.103.0.0/16'));
    const run = ovnk(['capacity', '-f', file, '-o', 'json']);
    expect(run.code).toBe(1);
    const forecast = documentOf(run);
    expect(forecast.ok).toBe(false);
    expect(forecast.problems.map((p: any) => p.reason)).toContain('ConnectSubnetConflict');
    expect(forecast.connects).toEqual([]);
    expect(forecast.networks).toHaveLength(3);
  });

  it('exits 3 naming the file and the field for unusable input', () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, readFileSync(colored, 'utf8').replace('networkPrefix: 24', 'networkPrefix: twenty-four'));
    const run = ovnk(['capacity', '-f', file, '-o', 'json']);
    expect(run.code).toBe(3);
    expect(documentOf(run)).toMatchObject({ ok: false, file });
    expect(JSON.stringify(documentOf(run))).toContain('networkPrefix');
  });
});
