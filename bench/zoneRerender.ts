/**
 * Part of `npm run bench -- connect-rows` (issue 30.2): one per-node zone of the 16 connects x 30
 * networks x 500 nodes plan rendered whole (networks, connects, shared rows), then the same zone of
 * the plan with one network added, rendered again against the render memos. Baseline in the same
 * run: the first full render of the zone. Target: the re-render costs what the change costs (one
 * network, one connect), not the zone.
 */
import { prepareZones } from '../provider/connect/zones';
import { allocateTopology } from '../provider/runtime/plan';
import { clearRenderMemos, renderMemoStats, zoneRows } from '../provider/runtime/zoneRows';
import { networkEndpoints } from '../provider/topology/services';
import { figure, note, timed } from './harness';
import { largeTopologyText } from './largeTopology';

function zoneOf(extraNetworks: number) {
  const outcome = allocateTopology(largeTopologyText(extraNetworks));
  if (!outcome.ok) throw new Error(`bench input unusable: ${outcome.problems[0]!.message}`);
  const { cluster, allocation, inputs } = outcome.allocated;
  const connects = prepareZones(cluster, allocation, networkEndpoints(inputs.zones[0]!.inputs));
  return { zone: inputs.zones[0]!, connects };
}

/** Wall and CPU seconds (this process) of one zone's rows. */
async function rendered(z: ReturnType<typeof zoneOf>) {
  const start = process.cpuUsage();
  const { seconds, value } = await timed(() => zoneRows(z.zone, z.connects));
  const used = process.cpuUsage(start);
  return { seconds, cpu: (used.user + used.system) / 1e6, rows: value.rows.length };
}

export async function zoneRerender(): Promise<void> {
  clearRenderMemos();
  const first = await rendered(zoneOf(0));
  const before = renderMemoStats();
  const again = await rendered(zoneOf(1));
  const after = renderMemoStats();
  const misses = {
    networks: after.networks.misses - before.networks.misses,
    connects: after.connects.misses - before.connects.misses,
  };
  if (misses.networks !== 1 || misses.connects !== 1 || again.rows <= first.rows)
    throw new Error(`re-render after one added network rendered ${JSON.stringify(misses)}, ${again.rows} rows`);
  note(
    `zone ${first.rows} rows: first render ${first.seconds.toFixed(2)} s (${first.cpu.toFixed(2)} s CPU); with one network added, ${again.rows} rows, rendering 1 network and 1 connect: ${again.seconds.toFixed(2)} s (${again.cpu.toFixed(2)} s CPU)`,
  );
  clearRenderMemos();
  figure('zone.rerender.one_network', again.seconds, 's');
  figure('zone.rerender.one_network.vs_first', again.seconds / first.seconds, 'x');
  figure('zone.rerender.one_network.cpu.vs_first', again.cpu / first.cpu, 'x');
}
