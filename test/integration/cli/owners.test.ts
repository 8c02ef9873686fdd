import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOf, ovnk } from '../../support/cli';
import { startOvsdbServer, type OvsdbServer, nbctl as nbctlAt } from '../../support/ovsdbServer';
import { gatewayNode, layer3AndLayer2, oneLayer3 } from '../../support/worlds';

const topology = oneLayer3;

let server: OvsdbServer;
let dir: string;
const nbctl = (...args: string[]) => nbctlAt(server, ...args);

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

beforeAll(async () => {
  server = await startOvsdbServer();
  dir = mkdtempSync(join(tmpdir(), 'ovnk-owners-'));
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('ovnk apply beside rows of others', () => {
  it('refuses (exit 1) naming the foreign row that holds a unique name of ours, and writes nothing', async () => {
    const blue = file('blue.yaml', topology('cli-a', 'blue', '10.10.0.0/16'));
    const port = 'rtos-cluster_udn_blue_n1';
    await nbctl('lr-add', 'theirs', '--', 'lrp-add', 'theirs', port, '0a:00:00:00:00:01', '192.0.2.1/24');
    const refused = ovnk(['apply', '-f', blue, '--nb', server.unix, '-o', 'json']);
    expect(refused.code).toBe(1);
    const document = documentOf(refused);
    expect(document.zones.central.problems).toEqual([
      {
        reason: 'ForeignRowClash',
        path: `Logical_Router_Port (${port})`,
        message: expect.stringMatching(
          new RegExp(`Logical_Router_Port \\(${port}\\) already exists as a row without an ovnk owner marker`),
        ),
      },
    ]);
    expect(await nbctl('--bare', '--columns=name', 'list', 'Logical_Router')).toBe('theirs');
    await nbctl('lr-del', 'theirs');
    expect(ovnk(['apply', '-f', blue, '--nb', server.unix]).code).toBe(0);
    expect(ovnk(['destroy', '-f', blue, '--nb', server.unix]).code).toBe(0);
  });
});

/**
 * Owner `owner` in per-node zones with a Layer3 and a primary Layer2 network, and gateway details
 * (masquerade SNAT).
 */
const twoNetworks = (owner: string, l3: string, l2: string, l3Pins?: Record<string, string>) =>
  layer3AndLayer2(owner, [l3, l2], [gatewayNode(1), gatewayNode(2)], [l3Pins]);

describe('two owners allocating in one Northbound', () => {
  it('give every network its own id, masquerade IPs and transit tunnel key, and refuse a pinned id the other holds', async () => {
    const zone = (owner: string) => ['--nb', `n1=${server.unix}`, '--zone', 'n1', '--owner', owner];
    const a = file('a.yaml', twoNetworks('a', 'blue', 'green'));
    const b = file('b.yaml', twoNetworks('b', 'red', 'yellow'));
    expect(ovnk(['apply', '-f', a, ...zone('a')]).code).toBe(0);
    expect(ovnk(['apply', '-f', b, ...zone('b')]).code).toBe(0);
    const state = async (owner: string) =>
      JSON.parse(JSON.parse(await nbctl('get', 'NB_Global', '.', `external_ids:"ovnk.io/state/${owner}"`)));
    const [sa, sb] = [await state('a'), await state('b')];
    expect(sa.allocation.networkIds).toEqual({ cluster_udn_blue: 1, cluster_udn_green: 2 });
    expect(sb.allocation.networkIds).toEqual({ cluster_udn_red: 3, cluster_udn_yellow: 4 });
    const key = (router: string) => nbctl('get', 'Logical_Router', router, 'options:requested-tnl-key');
    expect(await key('cluster_udn_yellow_transit_router')).not.toBe(await key('cluster_udn_green_transit_router'));
    const snat = async (router: string) =>
      (await nbctl('--bare', '--columns=external_ip', 'find', 'NAT', `external_ids:"k8s.ovn.org/network"=${router}`))
        .split(/\s+/)
        .filter(Boolean);
    const [blue, red] = [await snat('cluster_udn_blue'), await snat('cluster_udn_red')];
    expect(blue.length).toBeGreaterThan(0);
    expect(red.filter((ip) => blue.includes(ip))).toEqual([]);
    const pinned = file('pinned.yaml', twoNetworks('c', 'pink', 'cyan', { 'k8s.ovn.org/network-id': '1' }));
    const refused = ovnk(['apply', '-f', pinned, ...zone('c'), '-o', 'json']);
    expect(refused.code).toBe(1);
    expect(documentOf(refused).problems).toContainEqual({
      reason: 'OwnerConflict',
      path: 'ClusterUserDefinedNetwork/pink: metadata.annotations["k8s.ovn.org/network-id"]',
      message: expect.stringContaining('owner "a" (network "cluster_udn_blue") holds it in this Northbound'),
    });
    for (const [f, owner] of [
      [a, 'a'],
      [b, 'b'],
    ])
      expect(ovnk(['destroy', '-f', f!, ...zone(owner!)]).code).toBe(0);
  });
});

describe('repairing one owner beside another', () => {
  it("rebuilds an unreadable state from a fresh plan that takes the other owner's allocations as taken", async () => {
    const a = file('ra.yaml', topology('ra', 'blue', '10.10.0.0/16'));
    const b = file('rb.yaml', topology('rb', 'red', '10.20.0.0/16'));
    for (const f of [a, b]) expect(ovnk(['apply', '-f', f, '--nb', server.unix]).code).toBe(0);
    const stateOf = async (owner: string) =>
      JSON.parse(JSON.parse(await nbctl('get', 'NB_Global', '.', `external_ids:"ovnk.io/state/${owner}"`)));
    expect((await stateOf('rb')).allocation.networkIds).toEqual({ cluster_udn_red: 2 });
    await nbctl('set', 'NB_Global', '.', 'external_ids:"ovnk.io/state/rb"="{broken"');
    const repaired = ovnk(['repair', '-f', b, '--nb', server.unix, '-o', 'json']);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(documentOf(repaired).zones.central.rebuilt).toEqual([
      expect.stringMatching(
        /^state unreadable \(.*\): rebuilt from a fresh plan of .*, which matches every row of this owner$/,
      ),
    ]);
    expect((await stateOf('rb')).allocation.networkIds).toEqual({ cluster_udn_red: 2 });
    expect(documentOf(ovnk(['apply', '-f', b, '--nb', server.unix, '-o', 'json'])).zones.central.sent).toBe(false);
    for (const f of [a, b]) expect(ovnk(['destroy', '-f', f, '--nb', server.unix]).code).toBe(0);
  });
});
