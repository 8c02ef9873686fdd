/**
 * Typed failures of the embedded lab. Each carries the kind the `ovnk` contract maps to an exit
 * code (bad input 3, refused 1, failing 4) and one sentence that says what to do.
 */

export type LabErrorKind = 'bad-input' | 'refused' | 'failing';

export class LabError extends Error {
  constructor(
    readonly kind: LabErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'LabError';
  }
}

export const badInput = (message: string): LabError => new LabError('bad-input', message);
export const refused = (message: string): LabError => new LabError('refused', message);
export const failing = (message: string): LabError => new LabError('failing', message);
