/** Strict Pulumi mocks for the component tests, and helpers to read outputs. */
import * as pulumi from '@pulumi/pulumi';
import { pulumiKinds } from '../../provider/runtime/pulumi';

export interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

/** Strict mocks: records every registration; ClusterAllocations answers as its real check does at preview. */
export function installMocks(preview: boolean, allocate: (name: string) => boolean = () => true): Registered[] {
  const registered: Registered[] = [];
  pulumi.runtime.setMocks(
    {
      newResource: async (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        if (args.type === 'pulumi-nodejs:dynamic/ovnk:ClusterAllocations' && allocate(args.name)) {
          const checked = await pulumiKinds.ClusterAllocations.check({}, args.inputs);
          return { id: `${args.name}-id`, state: checked.inputs };
        }
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: (args) => {
        throw new Error(`Mock not implemented: ${args.token}`);
      },
    },
    'ovnk-pulumi',
    'test',
    preview,
  );
  return registered;
}

export function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

export const isKnown = (output: pulumi.Output<unknown>) => (output as unknown as { isKnown: Promise<boolean> }).isKnown;

export async function settle(count: () => number, wanted: number): Promise<void> {
  for (let i = 0; i < 200 && count() < wanted; i++) await new Promise((r) => setTimeout(r, 10));
}
