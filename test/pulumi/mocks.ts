/** Strict Pulumi mocks for the component tests, and helpers to read outputs. */
import * as pulumi from '@pulumi/pulumi';
import { pulumiKinds } from '../../provider/runtime/pulumi';

export interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

/** The URN an alias of a registration names, as the engine collapses it (name, type and parent defaulting to the resource's). */
function aliasUrn(req: any, alias: any): string {
  if (alias.getUrn()) return alias.getUrn();
  const spec = alias.getSpec();
  const type = spec.getType() || req.getType();
  const parent = spec.getNoparent() ? '' : spec.getParenturn() || req.getParent();
  const prefix = parent ? `${parent.slice(0, parent.lastIndexOf('::'))}$` : 'urn:pulumi:test::ovnk-pulumi::';
  return `${prefix}${type}::${spec.getName() || req.getName()}`;
}

/** Records the alias URNs each registration sends (by resource name), from the SDK's request to the monitor. */
export function recordAliases(): Map<string, string[]> {
  const aliases = new Map<string, string[]>();
  const monitor: any = (pulumi.runtime as any).getMonitor();
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req: any, callback: unknown) => {
    aliases.set(
      req.getName(),
      req.getAliasesList().map((a: any) => aliasUrn(req, a)),
    );
    return register(req, callback);
  };
  return aliases;
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
          // as the engine: a failed check fails the registration, the outputs never resolve
          if (checked.failures?.length)
            throw new Error(checked.failures.map((f) => `${f.property}: ${f.reason}`).join('; '));
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
