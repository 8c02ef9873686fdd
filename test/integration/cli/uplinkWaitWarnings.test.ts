/**
 * `ovnk apply` and `ovnk diff` on a real Northbound while a node with an Uplink CUDN cannot be
 * discovered (here it has no SSH target): both say at plan time which network gets no gateway
 * there, in upstream's words (go-controller/pkg/ovn/uplink_gateway.go uplinkGatewayConfig,
 * "waiting for UplinkState ..."), and apply writes nothing to the node's zone, so the gateway an
 * earlier apply wrote stays, as upstream keeps it while its gateway sync fails
 * (provider/runtime/cluster/undiscovered.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OvsdbClient } from '../../../provider/ovsdb/client';
import { applyZone, planTopology } from '../../../provider/runtime/cli';
import { documentOf, ovnk } from '../../support/cli';
import { cudn, inventory, layer3, ovsBridgeConfig, uplink, yamlOf } from '../../support/objects';
import { nbctl, type OvsdbServer, startOvsdbServer } from '../../support/ovsdbServer';
import { resolvedUplinkState, uplinkGatewayNode } from '../../support/worlds';

const owner = 'upl';
const world = yamlOf(
  inventory(owner, { ipFamilies: ['IPv4'], namespaces: [{ name: 'tenant' }], nodes: [uplinkGatewayNode] }),
  uplink('blue', [ovsBridgeConfig('breth0')]),
  cudn('l3', layer3('10.100.0.0/16', 24), { uplinks: ['blue'] }),
);
const gatewayRouter = 'GR_cluster_udn_l3_node-a';

let server: OvsdbServer;
let dir: string;
let args: string[];

beforeAll(async () => {
  server = await startOvsdbServer();
  dir = mkdtempSync(join(tmpdir(), 'ovnk-uplink-wait-'));
  const file = join(dir, 'world.yaml');
  writeFileSync(file, world);
  args = ['-f', file, '--nb', `node-a=${server.unix}`];
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const routers = async () =>
  (await nbctl(server, '--bare', '--columns=name', 'list', 'Logical_Router')).split('\n').filter((n) => n !== '');

const warningLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('Warning: '));

describe('apply and diff while a node with an Uplink CUDN cannot be discovered', () => {
  it('apply warns that node-a gets no gateway, writes nothing to its zone and exits 4 naming the node', async () => {
    const applied = ovnk(['apply', ...args, '-o', 'json']);
    expect(applied.code, applied.stderr).toBe(4);
    const document = documentOf(applied);
    expect(document.failedZones).toEqual(['node-a']);
    expect(document.failedNodes).toEqual(['node-a']);
    expect(String(document.error)).toContain('zone node-a: not written: node node-a was not discovered');
    const warnings = document.warnings as { reason: string; path: string; message: string }[];
    expect(warnings.map((w) => [w.reason, w.path])).toEqual([
      ['MissingUplinkState', 'ClusterUserDefinedNetwork/l3: spec.uplinks'],
    ]);
    expect(warnings[0]!.message).toContain('waiting for UplinkState blue.node-a');
    expect(await routers()).toEqual([]);
  });

  it('a gateway written while the state was known stays when a later apply cannot discover the node', async () => {
    const known = planTopology(world, undefined, { uplinkStates: [resolvedUplinkState('True')] });
    if (!known.ok) throw new Error(known.problems[0]!.message);
    const client = await OvsdbClient.connect(server.unix);
    try {
      expect((await applyZone(client, known.plan.zones[0]!, owner, known.plan.state)).sent).toBe(true);
    } finally {
      client.close();
    }
    expect(await routers()).toContain(gatewayRouter);
    const before = await nbctl(server, '--bare', '--columns=_uuid', 'list', 'Logical_Router_Port');

    const applied = ovnk(['apply', ...args]);
    expect(applied.code, applied.stderr).toBe(4);
    expect(applied.stderr).toContain('not written: node node-a was not discovered');
    expect(await routers()).toContain(gatewayRouter);
    expect(await nbctl(server, '--bare', '--columns=_uuid', 'list', 'Logical_Router_Port')).toBe(before);
  });

  it("diff does not offer to remove that gateway: it names the zone and the node, and prints the same warning in upstream's words", () => {
    const json = ovnk(['diff', ...args, '-o', 'json']);
    expect(json.code, json.stderr).toBe(4);
    expect(documentOf(json)).toMatchObject({ failedZones: ['node-a'], failedNodes: ['node-a'] });
    expect(String(documentOf(json).error)).toContain('zone node-a: not compared: node node-a was not discovered');
    const diffed = ovnk(['diff', ...args]);
    expect(diffed.code, diffed.stderr).toBe(4);
    expect(diffed.stdout).not.toContain(gatewayRouter);
    const lines = warningLines(diffed.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Warning: ClusterUserDefinedNetwork\/l3: spec\.uplinks: node node-a gets no gateway/);
    expect(lines[0]).toContain('on Uplink blue');
    expect(lines[0]).toContain('waiting for UplinkState blue.node-a');
  });
});
