/**
 * The typed error of the topology renderer: bad or missing input, naming the field, the value
 * and the reason, e.g. `nodes[1].hostSubnets.blue: "10.0.0.0/33" has an invalid prefix length`.
 */
export class TopologyInputError extends Error {
  override name = 'TopologyInputError';

  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${JSON.stringify(value)} ${reason}`);
  }
}
