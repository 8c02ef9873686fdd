/** Strict Pulumi mocks for the component tests, and helpers to read outputs. */
import * as pulumi from '@pulumi/pulumi';
import { pulumiKinds } from '../../provider/runtime/pulumi';

export interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

/**
 * The URN an alias of a registration names, as the engine collapses it (name, type and parent
 * defaulting to the resource's).
 */
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

/** The options a registration sends to the engine (by resource name), read from the SDK's request to the monitor. */
export interface SentOptions {
  parent: string;
  dependencies: string[];
  replaceOnChanges: string[];
  deleteBeforeReplace: boolean;
  provider: string;
}

export function recordOptions(): Map<string, SentOptions> {
  const sent = new Map<string, SentOptions>();
  const monitor: any = (pulumi.runtime as any).getMonitor();
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req: any, callback: unknown) => {
    sent.set(req.getName(), {
      parent: req.getParent(),
      dependencies: req.getDependenciesList(),
      replaceOnChanges: req.getReplaceonchangesList(),
      deleteBeforeReplace: req.getDeletebeforereplace(),
      provider: req.getProvider(),
    });
    return register(req, callback);
  };
  return sent;
}

/**
 * What the kubernetes provider reads back for a custom resource (upstream's annotations and
 * status), merged into its state.
 */
export type LiveState = (args: { type: string; name: string; inputs: Record<string, any> }) => Record<string, unknown>;

const allocationKinds = ['ClusterAllocations', 'ClusterPrediction'] as const;

/** Names whose failed check is recorded in `refusals` and never answered (no rejection reaches dependents). */
export const refusedQuietly = new Set<string>();
export const refusals: { name: string; message: string }[] = [];

/**
 * Strict mocks: records every registration; ClusterAllocations and ClusterPrediction answer as
 * their real check does at preview.
 */
export function installMocks(
  preview: boolean,
  allocate: (name: string) => boolean = () => true,
  live?: LiveState,
): Registered[] {
  const registered: Registered[] = [];
  pulumi.runtime.setMocks(
    {
      newResource: async (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        const kind = allocationKinds.find((k) => args.type === `pulumi-nodejs:dynamic/ovnk:${k}`);
        if (args.type.startsWith('kubernetes:') && live) {
          const read = live(args);
          return { id: `${args.name}-id`, state: { ...args.inputs, ...read } };
        }
        if (kind && allocate(args.name)) {
          const checked = await pulumiKinds[kind].check({}, args.inputs);
          // as the engine: a failed check fails the registration, the outputs never resolve
          if (checked.failures?.length) {
            const message = checked.failures.map((f) => `${f.property}: ${f.reason}`).join('; ');
            if (!refusedQuietly.has(args.name)) throw new Error(message);
            // the engine stops the preview here: nothing waiting on this resource is ever registered
            refusals.push({ name: args.name, message });
            return new Promise<never>(() => undefined);
          }
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
