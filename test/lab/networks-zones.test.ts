import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { startOvsdbServer, type OvsdbServer } from '../support/ovsdbServer';
import { fixture, ovnk } from './networks-helpers';

// The per-node layout: one Northbound per node (here three plain ovsdb-servers with the installed
// NB schema; rows only: the lab has one central Northbound, so no packets cross these zones).
const nodes = ['ovn-worker', 'ovn-worker2', 'ovn-worker3'];
const servers: OvsdbServer[] = [];
const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-networks-zones-'));
let file = '';

beforeAll(async () => {
  for (let i = 0; i < nodes.length; i++) servers.push(await startOvsdbServer());
  const nodeList = nodes.map((n, i) => `  - {name: ${n}, id: ${i + 2}, chassisId: chassis-${i + 2}}`).join('\n');
  const targets = nodes.map((n, i) => `      ${n}: {nb: "${servers[i]!.unix}"}`).join('\n');
  const text = readFileSync(fixture('networks-layer2.yaml'), 'utf8')
    .replace('name: t-networks-l2', 'name: t-networks-zones')
    .replace(
      '  ipFamilies: [IPv4, IPv6]',
      `  ipFamilies: [IPv4, IPv6]\n  zones: per-node\n  nodes:\n${nodeList}\n  targets:\n    zones:\n${targets}`,
    );
  file = path.join(dir, 'zones.yaml');
  writeFileSync(file, text);
});

afterAll(async () => {
  for (const s of servers) await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function routerPorts(server: OvsdbServer): Promise<Record<string, unknown>[]> {
  const client = await OvsdbClient.connect(server.unix);
  try {
    const [result] = await client.transact('OVN_Northbound', [
      { op: 'select', table: 'Logical_Router_Port', where: [], columns: ['name', 'options'] },
    ]);
    return result!.rows ?? [];
  } finally {
    client.close();
  }
}

describe('the per-node layout: one Northbound per node', () => {
  it('apply sends one transaction to each zone, and a second apply sends nothing', () => {
    const first = ovnk('apply', '-f', file, '-o', 'json');
    expect(first.status, first.stderr).toBe(0);
    expect(Object.keys(first.json.zones)).toEqual(nodes);
    for (const node of nodes) expect(first.json.zones[node].sent).toBe(true);
    const again = ovnk('apply', '-f', file, '-o', 'json');
    for (const node of nodes) expect(again.json.zones[node]).toMatchObject({ sent: false, operations: 0 });
    expect(ovnk('diff', '-f', file).status).toBe(0);
  });

  it('each zone holds its own gateway router and remote transit-router ports bound to the other nodes', async () => {
    const ports = await routerPorts(servers[0]!);
    const names = ports.map((p) => p.name as string);
    expect(names).toContain('rtotr-GR_cluster_udn_green_ovn-worker');
    expect(names).not.toContain('rtotr-GR_cluster_udn_green_ovn-worker2');
    const remote = ports.find((p) => p.name === 'trtor-GR_cluster_udn_green_ovn-worker2');
    expect(remote?.options).toMatchObject({ 'requested-chassis': 'chassis-3' });
  });

  it('--zone applies and diffs one zone only', () => {
    const one = ovnk('diff', '-f', file, '--zone', 'ovn-worker2', '-o', 'json');
    expect(Object.keys(one.json.zones)).toEqual(['ovn-worker2']);
  });

  it('destroy empties every zone of this owner', async () => {
    expect(ovnk('destroy', '-f', file).status).toBe(0);
    for (const server of servers) expect(await routerPorts(server)).toEqual([]);
  });
});
