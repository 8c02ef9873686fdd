/**
 * The problem shape of the Uplink feature: the model's Problem with the reasons of OKEP-6019 and
 * upstream's CRD rules (InvalidSpec). A refused Uplink or CUDN is the CLI's exit 1. Pure.
 */
import { fieldPath } from '../model/problem';

export type UplinkProblemReason =
  'InvalidSpec' | 'UplinkNotFound' | 'UplinkUnsupportedGatewayMode' | 'UplinkUnsupportedTransport';

export interface UplinkProblem {
  reason: UplinkProblemReason;
  message: string;
  path: string;
  object: string;
}

export function uplinkProblem(
  reason: UplinkProblemReason,
  object: string,
  field: string,
  message: string,
): UplinkProblem {
  return { reason, message, path: fieldPath(object, field), object };
}
