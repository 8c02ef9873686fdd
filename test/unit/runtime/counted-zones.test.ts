import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { planTopology, type TopologyPlan } from '../../../provider/runtime/plan';

// Issue 25.4: past HELD_ROWS a per-node plan counts each zone's rows per table from the shared
// remote blocks without listing them (provider/runtime/zoneRows.ts zoneCounts). The counts must be
// what listing the rows gives, for every shape the examples hold: pods (Layer2 remote pods too),
// connects, services, egress and VRF-Lite networks, shared address sets.

const stacks = join(__dirname, '../../../stacks');
const examples = readdirSync(stacks).filter((f) => f.endsWith('.yaml') && !f.startsWith('Pulumi.'));

/**
 * The example with the lab's nodes listed (the lab fills them in), plus one without a chassis id
 * (its remote connect rows are left out with a note).
 */
function withNodes(text: string): string {
  const documents = parseAllDocuments(text).map((d) => d.toJS() as { kind: string; spec: Record<string, unknown> });
  const inventory = documents.find((d) => d.kind === 'Inventory')!;
  inventory.spec.nodes = [
    ...['ovn-control-plane', 'ovn-worker', 'ovn-worker2', 'ovn-worker3'].map((name, i) => ({
      name,
      chassisId: `00000000-0000-4000-8000-00000000000${i}`,
    })),
    { name: 'ovn-worker4' },
  ];
  return documents.map((d) => stringify(d)).join('---\n');
}

function planned(text: string, holdRows: boolean): TopologyPlan {
  const result = planTopology(text, undefined, { holdRows });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

function listedCounts(plan: TopologyPlan): Map<string, number>[] {
  return plan.zones.map((zone) => {
    const counts = new Map<string, number>();
    for (const row of zone.rows) counts.set(row.table, (counts.get(row.table) ?? 0) + 1);
    return counts;
  });
}

describe('zones counted without listing their remote rows', () => {
  it('are the examples of stacks/, enough of them per-node to count', () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
  });

  it.each(examples)('count exactly the rows %s lists in every zone, with the same notes', (file) => {
    const text = withNodes(readFileSync(join(stacks, file), 'utf8'));
    const held = planned(text, true);
    const counted = planned(text, false);
    expect(counted.zones.map((z) => z.name)).toEqual(held.zones.map((z) => z.name));
    expect(counted.zones.length).toBeGreaterThan(1);
    const listed = listedCounts(held);
    counted.zones.forEach((zone, i) => {
      expect(zone.tableCounts, zone.name).toEqual(listed[i]);
      expect(zone.notes).toEqual(held.zones[i]!.notes);
    });
    // and reading a counted zone's rows lists what the held zone holds
    expect(counted.zones.at(-1)!.rows).toEqual(held.zones.at(-1)!.rows);
  });
});
