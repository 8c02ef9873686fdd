/**
 * Benchmark pulumi: through the real dynamic-provider host, Check+Diff of a ConnectRouter against
 * Check+Diff of a trivial provider in the same host and run (targets: under 2x and under 5 ms);
 * the state size of a ConnectRouter in the scale topology (target under 64 KiB); the number of
 * Pulumi resources of the scale stack and its formula. Needs a built dist (npm run bench builds).
 */
import { pulumiKinds } from '../provider/runtime/pulumi';
import { resourceCount, scaleTopology } from '../stacks/scale';
import { dynamicUrn, linkedConsumer, PulumiHost, serializeShim } from '../test/support/pulumiHost';
import { type Benchmark, bestOf, figure, note } from './harness';

const trivial = { check: async (_o: unknown, news: unknown) => ({ inputs: news }), diff: async () => ({ changes: false }) };

async function perCall(host: PulumiHost, type: string, props: Record<string, unknown>): Promise<number> {
  const urn = dynamicUrn(type, 'bench');
  const checked = await host.check(urn, props, props);
  const rounds = 20;
  const seconds = await bestOf(5, async () => {
    for (let i = 0; i < rounds; i++) {
      const c = await host.check(urn, checked.inputs, props);
      await host.diff('bench', urn, c.inputs, c.inputs);
    }
  });
  return (seconds / rounds) * 1000;
}

async function checkDiffRatio(): Promise<void> {
  const pulumi = await import('@pulumi/pulumi');
  const consumer = linkedConsumer();
  const host = await PulumiHost.start(consumer.dir);
  try {
    await host.configure({});
    const topology = scaleTopology({ networks: 4, connects: 1, nodes: 3 }, 'central');
    const cluster = await pulumiKinds.ClusterAllocations.check({}, { owner: 'bench/cluster', ...topology });
    const props = { owner: 'bench/connect', zone: 'central', connect: 'connect-0', ...topology, state: cluster.inputs!.state };
    const trivialText = (await pulumi.runtime.serializeFunction(() => trivial, { allowSecrets: true })).text;
    const baseline = await perCall(host, 'Trivial', { __provider: trivialText, ...props });
    const ours = await perCall(host, 'ConnectRouter', { __provider: await serializeShim('ConnectRouter'), ...props });
    note(`Check+Diff per resource: ConnectRouter ${ours.toFixed(2)} ms, trivial provider ${baseline.toFixed(2)} ms (same host, same inputs)`);
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
  const topology = scaleTopology(spec, 'central');
  const cluster = await pulumiKinds.ClusterAllocations.check({}, { owner: 'bench/cluster', ...topology });
  const checked = await pulumiKinds.ConnectRouter.check({}, { owner: 'bench/connect', zone: 'central', connect: 'connect-0', ...topology, state: cluster.inputs!.state });
  const bytes = JSON.stringify({ ...checked.inputs, schemaVersion: 1, zones: ['central'], drift: { lines: [], count: 0 } }).length;
  const rows = Object.values((checked.inputs!.rowCounts ?? {}) as Record<string, number>).reduce((a, b) => a + b, 0);
  note(`ConnectRouter state (inputs + outputs) for ${spec.networks} networks x ${spec.nodes} nodes: ${(bytes / 1024).toFixed(1)} KiB for ${rows} rows (rows are not stored, only counts and a digest)`);
  figure('pulumi.state.connectrouter', bytes / 1024, 'KiB');
  for (const zones of ['central', 'per-node'] as const) {
    const count = resourceCount(spec, zones);
    note(`scale stack (${zones}): 1 stack + 1 Cluster + N networks + C connects (components) + 1 ClusterAllocations + ${zones === 'central' ? 'N NetworkRows + C ConnectRouters' : 'Z ZoneRows'} = ${count}`);
    figure(`pulumi.resources.scale.${zones}`, count, 'resources');
  }
}

export const pulumiBenchmark: Benchmark = {
  name: 'pulumi',
  description: 'Check+Diff per resource through the host vs a trivial provider; ConnectRouter state size; scale stack resource count',
  async run() {
    await checkDiffRatio();
    await stateSize();
  },
};
