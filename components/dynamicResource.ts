/**
 * The base of our dynamic resources: registered exactly as `pulumi.dynamic.Resource` registers
 * one (type `pulumi-nodejs:dynamic/ovnk:<kind>`, the provider's text in the `__provider` input,
 * served by the engine's dynamic-provider host), but with the kind's fixed text from
 * provider/shim.ts instead of the SDK's serialization of a provider object: the engine sends that
 * text with every call and keeps it in each resource's inputs and outputs.
 */
import * as pulumi from '@pulumi/pulumi';
import { type ShimKind, shims } from '../provider/shim';

export abstract class DynamicResource extends pulumi.CustomResource {
  constructor(kind: ShimKind, name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    if (props.__provider !== undefined) throw new Error('A dynamic resource must not define the __provider key');
    super(`pulumi-nodejs:dynamic/ovnk:${kind}`, name, { ...props, __provider: shims[kind] }, opts);
  }
}
