/** VRF-Lite membership of Uplink host interfaces (OKEP-6019, pure): domains, conflicts, host facts, plans. */
export * from './vrfDomain';
export * from './vrfConflict';
export * from './vrfHost';
export * from './vrfPlan';
export * from './vrfIntents';
