/**
 * Issue 26 point 2 on real ovsdb-servers: a connect made before its networks (a pipeline's usual
 * order) is applied as upstream applies it, then converges as the networks come. Upstream makes
 * `connect_router_<name>` with its tunnel key as soon as the connect has one, whatever it selects
 * (ovn/controller/networkconnect/controller_test.go "should create connect router when CNC is
 * created", "should not create ports, policies and routes when CNC has no subnet annotation"),
 * adds the first network's ports and routes without policies ("should create ports and routes
 * when CNC has only one allocated network") and the policies with the second ("should handle
 * mixed Layer2 and Layer3 networks with 0 -> 1 -> 2 -> 1 -> 0 transitions").
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOf, ovnk } from '../../support/cli';
import {
  chassisNode,
  connectLabelled,
  inventory,
  labelledNamespace,
  layer3,
  networkFor,
  yamlOf,
} from '../../support/objects';
import { nbctl, type OvsdbServer, startOvsdbServer } from '../../support/ovsdbServer';

const owner = 'awaiting';
const names = ['blue', 'green'];
const network = (i: number) => networkFor(names[i]!, layer3(`10.${10 + i}.0.0/16`, 24), { labels: { join: 'yes' } });
/** The world with the first `count` networks (the namespaces are there from the start). */
const world = (count: number) =>
  yamlOf(
    inventory(owner, {
      zones: 'per-node',
      nodes: [chassisNode(1), chassisNode(2)],
      namespaces: names.map(labelledNamespace),
    }),
    ...[0, 1].slice(0, count).map(network),
    connectLabelled('c', { join: 'yes' }),
  );

let n1: OvsdbServer;
let n2: OvsdbServer;
let dir: string;
let nb: string[];
const file = (count: number) => {
  const path = join(dir, `world-${count}.yaml`);
  writeFileSync(path, world(count));
  return ['-f', path, ...nb];
};
const list = (server: OvsdbServer, table: string, column = 'name') =>
  nbctl(server, '--bare', `--columns=${column}`, 'find', table, `external_ids:k8s.ovn.org/name=c`);
const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .sort();

beforeAll(async () => {
  [n1, n2] = await Promise.all([startOvsdbServer(), startOvsdbServer()]);
  dir = mkdtempSync(join(tmpdir(), 'ovnk-awaiting-'));
  nb = ['--nb', `n1=${n1.unix}`, '--nb', `n2=${n2.unix}`];
});
afterAll(async () => {
  await Promise.all([n1?.stop(), n2?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('a connect applied before its networks', () => {
  let key: string;

  it('with none: apply writes the bare connect router in every zone and warns, diff and a second apply find nothing', async () => {
    const applied = ovnk(['apply', ...file(0), '-o', 'json']);
    expect(applied.code).toBe(0);
    expect(documentOf(applied).warnings).toContainEqual(
      expect.objectContaining({
        reason: 'InsufficientNetworks',
        path: 'ClusterNetworkConnect/c: spec.networkSelectors',
      }),
    );
    expect(applied.stderr).toContain(
      'Warning: ClusterNetworkConnect/c: spec.networkSelectors: no network is selected, minimum 2 networks required',
    );
    for (const server of [n1, n2]) {
      expect(await nbctl(server, '--bare', '--columns=name', 'list', 'Logical_Router')).toBe('connect_router_c');
      expect(await nbctl(server, '--bare', '--columns=ports', 'list', 'Logical_Router')).toBe('');
    }
    key = await nbctl(n1, 'get', 'Logical_Router', 'connect_router_c', 'options:requested-tnl-key');
    expect(await nbctl(n2, 'get', 'Logical_Router', 'connect_router_c', 'options:requested-tnl-key')).toBe(key);
    expect(ovnk(['diff', ...file(0)]).code).toBe(0);
    expect(documentOf(ovnk(['apply', ...file(0), '-o', 'json'])).zones.n1.sent).toBe(false);
  });

  it('with one: the network joins the same router with its ports and routes, no reroute policy', async () => {
    expect(ovnk(['apply', ...file(1)]).code).toBe(0);
    expect(await nbctl(n1, 'get', 'Logical_Router', 'connect_router_c', 'options:requested-tnl-key')).toBe(key);
    expect(lines(await list(n1, 'Logical_Router_Port'))).toEqual([
      'crtor-c_cluster_udn_blue_n1',
      'crtor-c_cluster_udn_blue_n2',
      'rtocr-cluster_udn_blue_n1_c',
    ]);
    expect(await list(n1, 'Logical_Router_Policy', 'match')).toBe('');
    expect(ovnk(['diff', ...file(1)]).code).toBe(0);
  });

  it('with two: the policies come, diff finds nothing, and destroy removes every row', async () => {
    const applied = ovnk(['apply', ...file(2), '-o', 'json']);
    expect(applied.code).toBe(0);
    expect(documentOf(applied).warnings).toBeUndefined();
    expect(lines(await list(n1, 'Logical_Router_Policy', 'match'))).toEqual([
      'inport == "rtos-cluster_udn_blue_n1" && ip4.dst == 10.11.0.0/16',
      'inport == "rtos-cluster_udn_green_n1" && ip4.dst == 10.10.0.0/16',
    ]);
    expect(ovnk(['diff', ...file(2)]).code).toBe(0);
    expect(ovnk(['destroy', ...file(2)]).code).toBe(0);
    for (const server of [n1, n2])
      expect(await nbctl(server, '--bare', '--columns=name', 'list', 'Logical_Router')).toBe('');
  });

  it('destroy of the connect alone removes its bare router', async () => {
    expect(ovnk(['apply', ...file(0)]).code).toBe(0);
    expect(ovnk(['destroy', ...file(0)]).code).toBe(0);
    for (const server of [n1, n2])
      expect(await nbctl(server, '--bare', '--columns=name', 'list', 'Logical_Router')).toBe('');
  });
});
