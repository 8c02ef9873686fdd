/**
 * `ovnk-pulumi/runtime`: the dynamic providers' entry. Each resource's `__provider` text
 * (provider/shim.ts; earlier versions stored a serialized shim) `require`s this module by package
 * name when the engine calls it, and takes its kind from `pulumiKinds`; stacks store that text,
 * so this name and `pulumiKinds` stay. Nothing else lives here: programs use the components
 * (`ovnk-pulumi`), tests `ovnk-pulumi/testing`; the CLI imports its own module (cli.ts).
 */
export { pulumiKinds, type PulumiKindName, SCHEMA_VERSION } from './pulumi';
