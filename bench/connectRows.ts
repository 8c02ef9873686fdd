/**
 * `npm run bench -- connect-rows`: the NB rows of one per-node zone of 16 connects of 30 Layer3
 * networks each over 500 nodes (about 240k ports, 240k routes, 14k policies), and of the central
 * zone of the colored-enterprise fixture. Baseline in the same run: JSON.stringify of the
 * rendered rows. Targets: the large zone under 5 s and 2 GiB and at most 1x the baseline (issue 30.3;
 * the first render also builds the remote rows every zone shares, so the figure is a later render),
 * colored-enterprise under 50 ms. Each render is a render: the render memo is emptied first. Then
 * zoneRerender.ts: the zone rendered again after a one-network change (issue 30.2).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareZones, renderZone, type ZonePlan } from '../provider/connect/zones';
import { allocateTopology } from '../provider/runtime/plan';
import { clearRenderMemos } from '../provider/runtime/zoneRows';
import { type Benchmark, bestOf, figure, note, timed } from './harness';
import { largeTopology, largeTopologyText } from './largeTopology';
import { zoneRerender } from './zoneRerender';

const { connects, perConnect, nodes } = largeTopology;

function prepared(text: string): ZonePlan {
  const outcome = allocateTopology(text);
  if (!outcome.ok) throw new Error(`bench input unusable: ${outcome.problems[0]!.message}`);
  const { cluster, allocation } = outcome.allocated;
  const refused = Object.entries(allocation.connects).find(([, c]) => !c.accepted);
  if (refused) throw new Error(`bench connect ${refused[0]} refused: ${refused[1].problems[0]!.message}`);
  return prepareZones(cluster, allocation);
}

function counts(rows: { table: string }[]): string {
  const by = new Map<string, number>();
  for (const r of rows) by.set(r.table, (by.get(r.table) ?? 0) + 1);
  return [...by].map(([t, n]) => `${t} ${n}`).join(', ');
}

/**
 * The zone's rows, every column read: a parent's reference column of remote children is listed
 * when first read (topology/parts.ts), and a render is only done when a writer could use it.
 */
function rendered(plan: ZonePlan, zone: ZonePlan['zones'][number]) {
  clearRenderMemos();
  const out = renderZone(plan, zone);
  for (const row of out.rows) for (const column in row.columns) void row.columns[column];
  return out;
}

async function run(): Promise<void> {
  const plan = prepared(largeTopologyText());
  const zone = plan.zones[0]!;
  const heapBefore = process.memoryUsage().heapUsed;
  const first = await timed(() => rendered(plan, zone));
  const heap = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  note(
    `zone ${zone.name}: ${first.value.rows.length} rows (${counts(first.value.rows)}); first render ${first.seconds.toFixed(3)} s, heap held ${heap.toFixed(0)} MiB, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
  );
  const large = await bestOf(3, () => rendered(plan, zone));
  const baseline = await bestOf(3, () => JSON.stringify(first.value.rows));
  note(`baseline JSON.stringify of the rendered rows: ${baseline.toFixed(3)} s`);
  const colored = prepared(
    readFileSync(join(__dirname, '..', '..', 'test', 'fixtures', 'colored-enterprise.yaml'), 'utf8').replace(
      'spec:\n',
      'spec:\n  zones: central\n',
    ),
  );
  const central = colored.zones[0]!;
  if (central.name !== 'central') throw new Error(`colored-enterprise zone is ${central.name}, not central`);
  const small = await bestOf(20, () => rendered(colored, central));
  figure('connect.rows.large', large, 's');
  figure('connect.rows.large.vs_stringify', large / baseline, 'x');
  figure('connect.rows.large.heap', heap, 'MiB');
  figure('connect.rows.colored', small * 1000, 'ms');
  await zoneRerender();
}

export const connectRowsBenchmark: Benchmark = {
  name: 'connect-rows',
  description: `NB rows of one per-node zone of ${connects} connects x ${perConnect} Layer3 networks over ${nodes} nodes, of colored-enterprise's central zone, and the large zone rendered again after a one-network change`,
  run,
};
