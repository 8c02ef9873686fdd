/**
 * The Cluster component's `diagram` output: the DOT text `ovnk diagram -o dot` prints for a file
 * of the same objects, known at preview once ClusterAllocations' check has allocated (strict
 * mocks answer with the real check), unknown before.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { diagramDot, diagramOf, planTopology } from '../../provider/runtime/cli';
import { repoRoot } from '../support/dist';
import { topologyArgs } from './fixtures';
import { installMocks, isKnown, valueOf } from './mocks';

describe('the Cluster component in a preview', () => {
  // q-* clusters get allocations from the real check; p-* ones stay unknown.
  beforeAll(() => installMocks(true, (name) => name.startsWith('q')));

  it('exposes the drawing of its plan as DOT text, the same as ovnk diagram -o dot of the file', async () => {
    const { Cluster } = await import('../../components');
    const cluster = new Cluster('q-diagram', topologyArgs('colored-enterprise', 'central'));
    expect(await isKnown(cluster.diagram)).toBe(true);
    const dot = await valueOf(cluster.diagram);
    const file = readFileSync(join(repoRoot, 'test', 'fixtures', 'colored-enterprise.yaml'), 'utf8');
    const planned = planTopology(
      file.replace('metadata: {name: lab}\nspec:\n', 'metadata: {name: lab}\nspec:\n  zones: central\n'),
    );
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    expect(dot).toBe(diagramDot(diagramOf(planned.plan)));
    expect(dot).toContain('"router:connect_router_colored-enterprise"');
    expect(dot).toContain('"network:cluster_udn_blue-network"');
  });

  it('leaves the drawing unknown while the allocations are', async () => {
    const { Cluster } = await import('../../components');
    const cluster = new Cluster('p-diagram', topologyArgs('colored-enterprise', 'central'));
    expect(await isKnown(cluster.diagram)).toBe(false);
  });
});
