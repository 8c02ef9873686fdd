/**
 * The Input forms of the objects a Cluster takes. A value that decides which child resources exist
 * stays plain in these types: an object's kind, name and namespace (one component each), a
 * network's topology (its component class) and `spec.uplinks` (the Uplinks it waits for). Every
 * other field takes a `pulumi.Input` (a connect's CIDR from an IPAM resource, a label from another
 * stack), resolved into the allocation resource's inputs, so `pulumi preview` works while it is
 * unknown. The Inventory's type already takes any value in its open fields; its `spec.zones`, its
 * node list and each node's `name` must be plain (plainArgs.ts refuses an Output there, by path).
 */
import type * as pulumi from '@pulumi/pulumi';
import type {
  ClusterNetworkConnectObject,
  ClusterUserDefinedNetworkObject,
  NetworkObject,
  UserDefinedNetworkObject,
} from './objects';

type Scalar = string | number | boolean | null | undefined;

/** `T` with a `pulumi.Input` allowed at every level. */
export type DeepInput<T> = T extends Scalar
  ? pulumi.Input<T>
  : T extends (infer U)[]
    ? pulumi.Input<DeepInput<U>[]>
    : pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>;

/** Each field of `T` a DeepInput (`T` itself a plain object). */
export type InputFields<T> = { [K in keyof T]: DeepInput<T[K]> };

type Cudn = ClusterUserDefinedNetworkObject;
type CudnNetwork = Cudn['spec']['network'];

/** A ClusterUserDefinedNetwork with Inputs but for its name, its topology and its `spec.uplinks`. */
export type ClusterUserDefinedNetworkArgs = Omit<Cudn, 'spec'> & {
  spec: InputFields<Omit<Cudn['spec'], 'network' | 'uplinks'>> &
    Pick<Cudn['spec'], 'uplinks'> & {
      network: Pick<CudnNetwork, 'topology'> & InputFields<Omit<CudnNetwork, 'topology'>>;
    };
};

/** A UserDefinedNetwork with Inputs but for its namespace, name and topology. */
export type UserDefinedNetworkArgs = Omit<UserDefinedNetworkObject, 'spec'> & {
  spec: Pick<UserDefinedNetworkObject['spec'], 'topology'> &
    InputFields<Omit<UserDefinedNetworkObject['spec'], 'topology'>>;
};

/** A network object as ClusterArgs take it: the plain NetworkObject, or one with Inputs in its spec. */
export type NetworkArgsObject = NetworkObject | ClusterUserDefinedNetworkArgs | UserDefinedNetworkArgs;

/** A ClusterNetworkConnect with Inputs in its spec (its name stays plain: one component each). */
export type ClusterNetworkConnectArgs =
  | ClusterNetworkConnectObject
  | (Omit<ClusterNetworkConnectObject, 'spec'> & { spec: InputFields<ClusterNetworkConnectObject['spec']> });
