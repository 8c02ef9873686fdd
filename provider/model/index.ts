/** provider/model: the object types, their parsing and shape checks, selectors and CIDR helpers. */
export * from './problem';
export * from './cidr';
export * from './selector';
export * from './load';
export * from './inventory';
export * from './network';
export * from './cudn';
export * from './udn';
export * from './cnc';
export * from './cluster';
export * from './targets';
