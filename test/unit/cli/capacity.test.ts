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
    expect(forecast.growth.nodes.more).toBe(13);
    expect(forecast.growth.networks).toMatchObject({
      more: 125,
      limits: [{ reason: 'ConnectSubnetExhausted', ref: 'ClusterNetworkConnect/colored-enterprise' }],
    });
  });

  it('prints the same forecast for people, with the first limit of each growth', () => {
    const run = ovnk(['capacity', '-f', colored]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('node ids 2..5000: 3 used, 4996 free');
    expect(run.stdout).toContain('fd00:103::/60 /64 per node: 3 used, 13 free');
    expect(run.stdout).toContain('Growing by nodes: 13 more fit, then');
    expect(run.stdout).toMatch(/Growing by networks: 125 more fit, then\n {2}ConnectSubnetExhausted/);
    expect(run.stderr).not.toContain('error');
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
