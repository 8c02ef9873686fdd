/**
 * The tiny dynamic-provider shim Pulumi serializes into each resource's `__provider`: per kind
 * an object whose methods `require("ovnk-pulumi/runtime")` by package name at call time and
 * forward. It captures only the kind's name and `load`, so the state stays small, a library
 * upgrade does not churn `__provider`, and read/delete always run the installed runtime.
 * One object per kind at module scope: the host caches and configures providers per text.
 */

export type ShimKind =
  'ClusterAllocations' | 'NetworkRows' | 'ConnectRouter' | 'ZoneRows' | 'UplinkState' | 'ClusterPrediction';

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports */
type Method = (...args: any[]) => Promise<any>;

/** Structurally a `pulumi.dynamic.ResourceProvider`, without importing the SDK here. */
export interface Shim {
  configure: Method;
  check: Method;
  diff: Method;
  create: Method;
  read: Method;
  update: Method;
  delete: Method;
}

export function makeShim(kind: ShimKind): Shim {
  // Resolved from the Pulumi project's directory (the host's cwd), never from this file.
  const load = () => require('ovnk-pulumi/runtime').pulumiKinds[kind];
  return {
    configure: (...args: any[]) => load().configure(...args),
    check: (...args: any[]) => load().check(...args),
    diff: (...args: any[]) => load().diff(...args),
    create: (...args: any[]) => load().create(...args),
    read: (...args: any[]) => load().read(...args),
    update: (...args: any[]) => load().update(...args),
    delete: (...args: any[]) => load().delete(...args),
  };
}

export const shims = {
  ClusterAllocations: makeShim('ClusterAllocations'),
  NetworkRows: makeShim('NetworkRows'),
  ConnectRouter: makeShim('ConnectRouter'),
  ZoneRows: makeShim('ZoneRows'),
  UplinkState: makeShim('UplinkState'),
  ClusterPrediction: makeShim('ClusterPrediction'),
};
