import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ovnk } from '../support/cli';
import { useTestHost } from '../support/hostFixture';
import { gatewayNode, inventory, labelledNamespace, layer2, layer3, networkFor } from '../support/objects';
import { nbctl } from '../support/ovsdbServer';
import type { Props } from '../support/pulumiHost';
import { stripOurMarks } from '../support/upstreamLike';
import { useZoneNorthbounds } from '../support/worlds';

// Kubernetes mode's audit through the engine's dynamic-provider host: ClusterPrediction, given
// the stack's Northbound endpoints, compares each zone's rows with the prediction on read
// (`pulumi refresh`). The zones hold rows as upstream writes them: the same objects applied by
// `ovnk apply`, then every ovnk.io key removed (no owner marker, no state).
const nodes = ['n1', 'n2'];
const objects = () => {
  const networks = [networkFor('blue', layer3('10.10.0.0/16', 24)), networkFor('green', layer2(['10.30.0.0/16']))];
  const spec = {
    zones: 'per-node',
    masqueradeSubnets: ['169.254.0.0/17'],
    nodes: [gatewayNode(1), gatewayNode(2)],
    namespaces: ['blue', 'green'].map(labelledNamespace),
    pods: [
      { name: 'a', namespace: 'blue', node: 'n1' },
      { name: 'b', namespace: 'green', node: 'n2' },
    ],
  };
  return { inventory: inventory('predicted', spec), networks, connects: [] };
};

const { servers, endpoints } = useZoneNorthbounds(nodes);
const { host, checkAndCreate } = useTestHost(['ClusterPrediction'], () => ({ 'ovnk:zoneEndpoints': endpoints() }));
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ovnk-prediction-audit-'));
  const { inventory: inv, networks } = objects();
  const file = join(dir, 'world.yaml');
  writeFileSync(file, [inv, ...networks].map((o) => stringify(o)).join('---\n'));
  const nb = nodes.flatMap((n, i) => ['--nb', `${n}=${servers[i]!.unix}`]);
  expect(ovnk(['apply', '-f', file, ...nb]).code).toBe(0);
  for (const server of servers) expect(await stripOurMarks(server.unix)).toBeGreaterThan(50);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ClusterPrediction audits the zones it has endpoints for on refresh', () => {
  let made: { urn: string; id: string; outs: Props };

  it('creates without reading any Northbound, and a refresh finds every zone as predicted', async () => {
    made = await checkAndCreate('ClusterPrediction', 'audited', { owner: 'predicted/cluster', ...objects() });
    expect(made.outs.audit).toBeUndefined();
    const read = await host.read(made.id, made.urn, made.outs);
    expect(read.properties.audit).toEqual({
      agrees: true,
      zones: {
        n1: { endpoint: servers[0]!.unix, missing: [], differing: [], unexpected: [] },
        n2: { endpoint: servers[1]!.unix, missing: [], differing: [], unexpected: [] },
      },
    });
  });

  it('a refresh after a hand edit names the missing port and the route nobody predicted, in that zone only', async () => {
    await nbctl(servers[0]!, 'lsp-del', 'blue.blue_blue_a');
    await nbctl(servers[0]!, 'lr-route-add', 'cluster_udn_blue_ovn_cluster_router', '192.0.2.0/24', '100.65.0.9');
    const read = await host.read(made.id, made.urn, made.outs);
    const audit = read.properties.audit as { agrees: boolean; zones: Record<string, Props> };
    expect(audit.agrees).toBe(false);
    expect(audit.zones.n1).toMatchObject({
      missing: ['Logical_Switch_Port blue.blue_blue_a'],
      differing: [],
      unexpected: ['Logical_Router_Static_Route cluster_udn_blue_ovn_cluster_router dst-ip 192.0.2.0/24 100.65.0.9'],
    });
    expect(audit.zones.n2).toMatchObject({ missing: [], differing: [], unexpected: [] });
  });
});
