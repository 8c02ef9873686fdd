/**
 * The `__provider` text of our dynamic resources: the module the Pulumi dynamic-provider host
 * loads (`requireFromString(text).handler()`, then its methods per call) for each resource. Ours
 * is one line per kind that `require`s `ovnk-pulumi/runtime` by package name, resolved from the
 * Pulumi project's directory (the host's cwd), and hands the host that kind's provider object.
 *
 * Written here rather than serialized by `pulumi.dynamic.Resource`: the SDK's closure serializer
 * wraps each of a provider object's seven methods in its own function (2.1 KB per kind), and the
 * engine sends that text in every Check, Diff, Create, Read, Update and Delete and stores it twice
 * in each resource's state; this text is under 100 bytes. It captures nothing, so a library
 * upgrade does not change it, and read/delete always run the installed runtime. Texts written by
 * earlier versions (the serialized shim) keep working: they require the same module and kind.
 */

export type ShimKind =
  'ClusterAllocations' | 'NetworkRows' | 'ConnectRouter' | 'ZoneRows' | 'UplinkState' | 'ClusterPrediction';

/** The kind's `__provider` text: a CommonJS module whose `handler()` returns the kind's provider. */
export function shimText(kind: ShimKind): string {
  return `exports.handler = () => require("ovnk-pulumi/runtime").pulumiKinds.${kind};\n`;
}

export const shims: Record<ShimKind, string> = {
  ClusterAllocations: shimText('ClusterAllocations'),
  NetworkRows: shimText('NetworkRows'),
  ConnectRouter: shimText('ConnectRouter'),
  ZoneRows: shimText('ZoneRows'),
  UplinkState: shimText('UplinkState'),
  ClusterPrediction: shimText('ClusterPrediction'),
};
