/** Typed failures of VRF host steps: the node, the argv that failed and what the host said. */

export class VrfHostError extends Error {
  constructor(
    readonly node: string,
    readonly argv: string[],
    readonly detail: string,
  ) {
    super(`on ${node}, "${argv.join(' ')}" failed: ${detail}`);
    this.name = 'VrfHostError';
  }
}
