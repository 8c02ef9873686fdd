/**
 * `ovnk-pulumi/testing`: Pulumi mocks for programs that use the components. Every output of a
 * Cluster comes from the check of its allocation resource (ClusterAllocations in Northbound mode,
 * ClusterPrediction in Kubernetes mode), which the engine runs at preview and at update; mocks that
 * echo their inputs leave those outputs unset. `ovnkMocks` answers both resources with their real
 * check (no I/O: validation and allocation only) and hands every other registration and call to
 * the user's own mocks, so it composes with the mocks a program already has for other providers.
 *
 * Usage (the README's testing section runs the same):
 * import * as pulumi from "@pulumi/pulumi";
 * import { ovnkMocks } from "ovnk-pulumi/testing";
 * pulumi.runtime.setMocks(ovnkMocks({
 *   newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), // your own mocks
 *   call: () => ({}),
 * }), "project", "stack", true);
 */
import * as pulumi from '@pulumi/pulumi';
import { pulumiKinds, UNKNOWN } from '../provider/runtime/pulumi';

type Mocks = pulumi.runtime.Mocks;
type NewResource = Parameters<Mocks['newResource']>[0];

/** The dynamic resources whose check gives a Cluster its outputs, by registered type. */
const answered = {
  'pulumi-nodejs:dynamic/ovnk:ClusterAllocations': pulumiKinds.ClusterAllocations,
  'pulumi-nodejs:dynamic/ovnk:ClusterPrediction': pulumiKinds.ClusterPrediction,
} as const;

const echo = (args: NewResource) => ({ id: `${args.name}-id`, state: args.inputs });

/** The inputs as the engine sends them: a value unknown at preview (an Input not yet known) as its sentinel. */
function engineForm(value: unknown): unknown {
  if (pulumi.isUnknown(value)) return UNKNOWN;
  if (Array.isArray(value)) return value.map(engineForm);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, engineForm(v)]));
}

/**
 * The user's mocks (default: every resource echoes its inputs, every call returns `{}`) with the
 * ovnk allocation resources answered as the engine would: a topology the planner refuses fails
 * the registration with the planner's problems, as `pulumi preview` would.
 */
export function ovnkMocks(mocks: Partial<Mocks> = {}): Mocks {
  return {
    newResource: async (args) => {
      const kind = (answered as Record<string, (typeof answered)[keyof typeof answered]>)[args.type];
      if (!kind) return (mocks.newResource ?? echo)(args);
      const checked = await kind.check({}, engineForm(args.inputs) as typeof args.inputs);
      if (checked.failures?.length)
        throw new Error(`${args.name}: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join('; ')}`);
      return { id: `${args.name}-id`, state: checked.inputs };
    },
    call: (args) => (mocks.call ? mocks.call(args) : {}),
  };
}
