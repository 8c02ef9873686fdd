/**
 * The string formats the schemas use, as the precompiled validators (generated/validators/) call
 * them: ajv-formats' int32, int64 and date-time, and Kubernetes' name formats (names.ts). The
 * generator registers these same definitions, so generated code and run time agree.
 */
import { fullFormats } from 'ajv-formats/dist/formats';
import { nameFormats } from './names';

export const formats = {
  int32: fullFormats.int32,
  int64: fullFormats.int64,
  'date-time': fullFormats['date-time'],
  ...Object.fromEntries(Object.entries(nameFormats).map(([name, format]) => [name, format.test])),
};
