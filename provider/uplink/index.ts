/** provider/uplink: OKEP-6019 Uplink/UplinkState, pure: validation, selection, naming, conditions, mappings, plans. */
export * from './names';
export * from './mappings';
export * from './problems';
export * from './validate';
export * from './select';
export * from './facts';
export * from './bridge';
export * from './conditions';
export * from './resolve';
export * from './gateway';
export * from './aggregate';
export * from './plan';
export * from './active';
export * from './replace';
export * from './routerGateway';
export * from './flows';
export * from './flowText';
