/** provider/runtime/uplink: Uplink discovery over SSH and the node's Open_vSwitch db, and bridge-mapping writes. */
export * from './hostFacts';
export * from './ovsFacts';
export * from './session';
export * from './run';

// What cli/commands/uplinks.ts still composes itself, until the runtime runs the Uplink section as
// one entry with a typed result (issue 17, section 2).
export { uplinksOf } from '../../model/cudn';
export { parseRouteAdvertisementsDocuments } from '../../model/routeAdvertisements';
export { planUplinks, type UplinkPlan } from '../../uplink/plan';
export { type UplinkReplacement, uplinkReplacements } from '../../uplink/replace';
export type { UplinkVrfInput } from '../../uplink/vrfIntents';
