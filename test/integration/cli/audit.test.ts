import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { documentOf, ovnk } from '../../support/cli';
import { gatewayNode, layer2, layer3, networkFor, ownedNetworks } from '../../support/objects';
import { nbctl, startOvsdbServer, type OvsdbServer } from '../../support/ovsdbServer';
import { stripOurMarks } from '../../support/upstreamLike';

// Two per-node zones on real ovsdb-servers holding the rows of a plan as upstream writes them:
// applied by ovnk, then every ovnk.io key taken out (no owner marker, no state, no row keys).
const owner = 'audited';
const pods = [
  { name: 'a', namespace: 'blue', node: 'n1' },
  { name: 'b', namespace: 'green', node: 'n2' },
];
const world = (spec: Record<string, unknown> = {}, nodes: object[] = [gatewayNode(1), gatewayNode(2)]) =>
  ownedNetworks(
    owner,
    { zones: 'per-node', masqueradeSubnets: ['169.254.0.0/17'], nodes, pods, ...spec },
    networkFor('blue', layer3('10.10.0.0/16', 24)),
    networkFor('green', layer2(['10.30.0.0/16'])),
  );

let dir: string;
let file: string;
let n1: OvsdbServer;
let n2: OvsdbServer;
let nb: string[];

const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const audit = (path = file, ...args: string[]) => ovnk(['audit', '-f', path, ...nb, ...args]);
const auditJson = (path = file) => documentOf(audit(path, '-o', 'json'));
/** The zone's whole database as ovsdb-client prints it. */
const dump = (server: OvsdbServer) => execFileSync('ovsdb-client', ['dump', server.unix, 'OVN_Northbound']).toString();
/** Every difference of a zone, one line each: `missing <table> <key>`, `differs ...`, `unexpected ...`. */
const differences = (zone: { missing: any[]; differing: any[]; unexpected: any[] }) => [
  ...zone.missing.map((r) => `missing ${r.table} ${r.key}`),
  ...zone.differing.map((d) => `differs ${d.table} ${d.key}: ${d.columns.map((c: any) => c.column).join(',')}`),
  ...zone.unexpected.map((r) => `unexpected ${r.table} ${r.key}`),
];

/** Writes `path`'s plan into both zones the way upstream would hold it: without a trace of ovnk. */
async function upstreamLike(path: string) {
  expect(ovnk(['apply', '-f', path, ...nb]).code).toBe(0);
  for (const server of [n1, n2]) expect(await stripOurMarks(server.unix)).toBeGreaterThan(50);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ovnk-audit-'));
  file = write('world.yaml', world());
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  [n1, n2] = await Promise.all([startOvsdbServer(), startOvsdbServer()]);
  nb = ['--nb', `n1=${n1.unix}`, '--nb', `n2=${n2.unix}`];
});
afterEach(async () => {
  await Promise.all([n1?.stop(), n2?.stop()]);
});

describe('ovnk audit of a Northbound whose rows carry no ovnk marker', () => {
  it('agrees (exit 0) in every zone, and writes nothing', async () => {
    await upstreamLike(file);
    expect(await nbctl(n1, 'get', 'NB_Global', '.', 'external_ids')).toBe('{}');
    const before = await Promise.all([dump(n1), dump(n2)]);
    const run = audit();
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^zone n1 \(unix:.*\): agrees \((\d+) rows expected, \1 read with \d+ selects\)$/m);
    expect(run.stdout).toMatch(/^zone n2 \(unix:.*\): agrees/m);
    const document = auditJson();
    expect(document).toMatchObject({ ok: true, differs: false });
    for (const zone of ['n1', 'n2']) expect(differences(document.zones[zone])).toEqual([]);
    expect(document.zones.n1.expected).toBeGreaterThan(80);
    expect([dump(n1), dump(n2)]).toEqual(before);
  });

  it('reports a deleted port, a changed SNAT and a route added by hand exactly once each, and no row of another network', async () => {
    await upstreamLike(file);
    await nbctl(n1, 'lsp-del', 'blue.blue_blue_a');
    const snat = await nbctl(n1, '--bare', '--columns=_uuid', 'find', 'NAT', 'type=snat', 'logical_ip="10.10.0.0/16"');
    await nbctl(n1, 'set', 'NAT', snat, 'external_ip=169.254.0.99');
    await nbctl(n1, 'lr-route-add', 'cluster_udn_blue_ovn_cluster_router', '192.0.2.0/24', '100.65.0.9');
    await nbctl(
      n1,
      'ls-add',
      'cluster_udn_red_n1',
      '--',
      'set',
      'Logical_Switch',
      'cluster_udn_red_n1',
      'external_ids:k8s.ovn.org/network=cluster_udn_red',
    );
    await nbctl(
      n1,
      'lr-add',
      'GR_cluster_udn_red_n1',
      '--',
      'lr-route-add',
      'GR_cluster_udn_red_n1',
      '0.0.0.0/0',
      '172.18.0.1',
    );

    const run = audit(file, '-o', 'json');
    expect(run.code).toBe(2);
    const document = documentOf(run);
    expect(document.differs).toBe(true);
    expect(differences(document.zones.n1)).toEqual([
      'missing Logical_Switch_Port blue.blue_blue_a',
      // the SNAT's external side is the masquerade IP of network id 1 on n1 (adopted from the rows)
      expect.stringMatching(/^differs NAT GR_cluster_udn_blue_n1 snat 169\.254\.0\.\d+ 10\.10\.0\.0\/16: external_ip$/),
      'unexpected Logical_Router_Static_Route cluster_udn_blue_ovn_cluster_router dst-ip 192.0.2.0/24 100.65.0.9',
    ]);
    expect(document.zones.n1.differing[0].columns[0]).toMatchObject({ found: '169.254.0.99' });
    expect(differences(document.zones.n2)).toEqual([]);
    expect(run.stdout).not.toMatch(/red/);
    const text = audit();
    expect(text.code).toBe(2);
    expect(text.stdout).toMatch(/^zone n1 .*: 3 differences/m);
    expect(text.stdout).toMatch(/^ {2}missing Logical_Switch_Port "blue\.blue_blue_a"$/m);
    expect(text.stdout).toMatch(
      /^ {2}differs NAT .*: external_ip expected "169\.254\.0\.\d+", found "169\.254\.0\.99"$/m,
    );
    expect(text.stdout).toMatch(/^ {2}unexpected Logical_Router_Static_Route ".*192\.0\.2\.0\/24 100\.65\.0\.9"/m);
  });

  it('reads only the audited networks: a hundred rows of another network change neither the result nor what is read', async () => {
    await upstreamLike(file);
    const read = () => auditJson().zones.n1;
    const alone = read();
    const commands = Array.from({ length: 100 }, (_, i) => [
      '--',
      'ls-add',
      `other_${i}`,
      '--',
      'set',
      'Logical_Switch',
      `other_${i}`,
      'external_ids:k8s.ovn.org/network=cluster_udn_other',
    ]).flat();
    await nbctl(n1, ...commands);
    const crowded = read();
    expect(differences(crowded)).toEqual([]);
    expect({ read: crowded.read, selects: crowded.selects }).toEqual({ read: alone.read, selects: alone.selects });
  });
});

describe('ovnk audit adopts the allocations it finds', () => {
  // Upstream's numbers differ from the ones ovnk would choose: other network ids, node ids, a
  // host subnet, a Layer2 transit router key.
  const allocations = {
    networks: [
      { name: 'cluster_udn_blue', id: 5 },
      { name: 'cluster_udn_green', id: 3, tunnelKeys: [16711686, 16715790] },
    ],
  };
  const pinnedNodes = [
    { ...gatewayNode(1), id: 7, hostSubnets: { cluster_udn_blue: ['10.10.9.0/24'] } },
    { ...gatewayNode(2), id: 4 },
  ];

  it('from the rows when the file pins nothing: the cluster is audited against its own numbers', async () => {
    await upstreamLike(write('upstream.yaml', world({ allocations }, pinnedNodes)));
    const document = auditJson(file);
    expect(document.differs).toBe(false);
    expect(document.adopted).toMatchObject({
      networks: allocations.networks,
      nodeIds: { n1: 7, n2: 4 },
      hostSubnets: { n1: { cluster_udn_blue: ['10.10.9.0/24'] } },
    });
  });

  it("from the file's annotations first: an Inventory that says another network id is audited against it", async () => {
    await upstreamLike(write('upstream.yaml', world({ allocations }, pinnedNodes)));
    const other = { networks: [{ name: 'cluster_udn_blue', id: 6 }, allocations.networks[1]] };
    const run = audit(write('claims.yaml', world({ allocations: other }, pinnedNodes)), '-o', 'json');
    expect(run.code).toBe(2);
    // network id 6 instead of 5 moves the transit switch key and the masquerade addresses
    expect(differences(documentOf(run).zones.n1)).toContain(
      'differs Logical_Switch cluster_udn_blue_transit_switch: other_config',
    );
  });
});
