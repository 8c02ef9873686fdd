/**
 * Benchmark pulumi: through the real dynamic-provider host, Check+Diff of a ConnectRouter against
 * Check+Diff of a trivial provider in the same host and run, both given the ConnectRouter's props
 * of the scale topology (targets: under 2x and under 5 ms);
 * the state size of a ConnectRouter in the scale topology (target under 64 KiB); the number of
 * Pulumi resources of the scale stack and its formula. Needs a built dist (npm run bench builds).
 */
import { type ClusterSlices, pulumiKinds, pulumiOutputsOf } from '../provider/runtime/pulumi';
import { unpack } from '../provider/runtime/pulumi/pack';
import { connectSliceRows } from '../provider/runtime/pulumi/sliceRows';
import { resourceCount, scaleTopology } from '../stacks/scale';
import { dynamicUrn, linkedConsumer, PulumiHost, providerText } from '../test/support/pulumiHost';
import { type Benchmark, figure, note, timed } from './harness';

export const trivial = {
  check: async (_o: unknown, news: unknown) => ({ inputs: news }),
  diff: async () => ({ changes: false }),
};

/** One batch of Check+Diff calls of a resource, as the engine makes them for an unchanged resource. */
export async function batchOf(
  host: PulumiHost,
  type: string,
  props: Record<string, unknown>,
): Promise<() => Promise<void>> {
  const urn = dynamicUrn(type, 'bench');
  const checked = await host.check(urn, props, props);
  return async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const c = await host.check(urn, checked.inputs, props);
      await host.diff('bench', urn, c.inputs, c.inputs);
    }
  };
}

const ROUNDS = 20;

/** Best per-call milliseconds of each batch, the batches interleaved so machine noise hits them alike. */
export async function interleaved(batches: (() => Promise<void>)[], runs = 8): Promise<number[]> {
  const best = batches.map(() => Infinity);
  for (let r = 0; r < runs; r++) {
    for (const [i, batch] of batches.entries()) best[i] = Math.min(best[i]!, (await timed(batch)).seconds);
  }
  return best.map((s) => (s / ROUNDS) * 1000);
}

/**
 * A ConnectRouter's props as the NetworkConnect component gives them: owner, zone, connect,
 * connectSubnets, its slice.
 */
async function connectProps(spec: { networks: number; connects: number; nodes: number }) {
  const topology = scaleTopology(spec, 'central');
  const cluster = await pulumiKinds.ClusterAllocations.check({}, { owner: 'bench/cluster', ...topology });
  if (cluster.failures?.length)
    throw new Error(`the scale topology does not check: ${JSON.stringify(cluster.failures)}`);
  const slice = (cluster.inputs!.slices as ClusterSlices).connects['connect-0'];
  return {
    owner: 'bench/connect',
    zone: 'central',
    connect: 'connect-0',
    connectSubnets: topology.connects[0]!.spec.connectSubnets,
    slice,
  };
}

async function checkDiffRatio(): Promise<void> {
  const pulumi = await import('@pulumi/pulumi');
  const consumer = linkedConsumer();
  const host = await PulumiHost.start(consumer.dir);
  try {
    await host.configure({});
    const props = await connectProps({ networks: 30, connects: 4, nodes: 50 });
    const trivialText = (await pulumi.runtime.serializeFunction(() => trivial, { allowSecrets: true })).text;
    const [floor, baseline, ours] = (await interleaved([
      await batchOf(host, 'Trivial', { __provider: trivialText }),
      await batchOf(host, 'Trivial', { __provider: trivialText, ...props }),
      await batchOf(host, 'ConnectRouter', { __provider: providerText('ConnectRouter'), ...props }),
    ])) as [number, number, number];
    note(
      `Check+Diff per resource: ConnectRouter ${ours.toFixed(2)} ms, trivial provider ${baseline.toFixed(2)} ms (same host, same inputs); the host's floor (trivial provider, no inputs) ${floor.toFixed(2)} ms`,
    );
    figure('pulumi.checkdiff.floor', floor, 'ms');
    figure('pulumi.checkdiff.connectrouter', ours, 'ms');
    figure('pulumi.checkdiff.trivial', baseline, 'ms');
    figure('pulumi.checkdiff.ratio', ours / baseline, 'x');
  } finally {
    await host.stop();
    consumer.remove();
  }
}

async function stateSize(): Promise<void> {
  const spec = { networks: 30, connects: 4, nodes: 50 };
  for (const size of [{ networks: 4, connects: 1, nodes: 3 }, spec]) {
    const checked = await pulumiKinds.ConnectRouter.check({}, await connectProps(size));
    const rows = connectSliceRows(unpack(checked.inputs!.slice), 'central');
    // the checkpoint keeps both: the checked inputs and the outputs create returns (the same builder)
    const inputs = JSON.stringify(checked.inputs).length;
    const outputs = JSON.stringify(pulumiOutputsOf(checked.inputs!, ['central'], rows)).length;
    note(
      `ConnectRouter state for ${size.networks} networks x ${size.nodes} nodes: inputs ${(inputs / 1024).toFixed(1)} KiB + outputs ${(outputs / 1024).toFixed(1)} KiB for ${rows.length} rows (rows are not stored: counts, digests, the packed slice)`,
    );
    if (size === spec) figure('pulumi.state.connectrouter', (inputs + outputs) / 1024, 'KiB');
  }
  for (const zones of ['central', 'per-node'] as const) {
    const count = resourceCount(spec, zones);
    note(
      `scale stack (${zones}): 1 stack + 1 Cluster + N networks + C connects (components) + 1 ClusterAllocations + ${zones === 'central' ? 'N NetworkRows + C ConnectRouters' : 'Z ZoneRows'} = ${count}`,
    );
    figure(`pulumi.resources.scale.${zones}`, count, 'resources');
  }
}

export const pulumiBenchmark: Benchmark = {
  name: 'pulumi',
  description:
    'Check+Diff per resource through the host vs a trivial provider; ConnectRouter state size; scale stack resource count',
  async run() {
    await checkDiffRatio();
    await stateSize();
  },
};
