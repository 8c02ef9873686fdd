/**
 * `ovnk diagram` and `ovnk capacity` with `--lab`: the plan they read is plan --lab's (the lab's
 * nodes fill the Inventory, the state stored there keeps the numbers), so the OKEP's
 * colored-enterprise, whose file lists no nodes, draws a gateway router per lab node and
 * forecasts from the lab's node count. Nothing is written.
 */
import { describe, expect, inject, it } from 'vitest';
import '../setup/lab';
import { ovnk } from './networks-helpers';

const lab = inject('lab');
const file = 'stacks/colored-enterprise.yaml';

describe('ovnk diagram and ovnk capacity against the lab', () => {
  it("forecasts from the lab's nodes: their ids used, the rest of 2..5000 free", () => {
    const run = ovnk('capacity', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(run.status, run.stderr).toBe(0);
    const nodes = lab.nodes.length;
    expect(run.json.ranges.nodeIds).toMatchObject({ used: nodes, free: 4999 - nodes });
    expect(run.json.networks.map((n: any) => n.name)).toContain('cluster_udn_orange-network');
  });

  it('draws a gateway router per lab node, and orange (no connect selects it) apart', () => {
    const run = ovnk('diagram', '-f', file, '--lab', lab.name, '-o', 'dot');
    expect(run.status, run.stderr).toBe(0);
    for (const node of lab.nodes) expect(run.stdout).toContain(`"router:GR_cluster_udn_blue.network_${node.name}"`);
    const apart = run.stdout.slice(run.stdout.indexOf('subgraph "cluster_unconnected"'));
    expect(apart.slice(0, apart.indexOf('\n  }\n'))).toContain('"network:cluster_udn_orange-network"');
  });
});
