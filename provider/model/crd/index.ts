/**
 * provider/model/crd: validation of objects against upstream's CRD schemas (CEL rules included) and
 * our Inventory's.
 */
export { brokenRules, validateObject, type ValidateOptions } from './validate';
export { knownKinds, type KnownKind } from './kinds';
export { crdSourceCommit } from './generated';
export { transitionPaths, transitionRules, type TransitionRule } from './transitions';
