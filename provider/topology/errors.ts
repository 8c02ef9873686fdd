/**
 * The typed error of the topology renderer: bad or missing input, naming the field, the value
 * and the reason, e.g. `nodes[1].hostSubnets.blue: "10.0.0.0/33" has an invalid prefix length`.
 * `forNetwork` marks an error with the network being rendered, so a refusal can name its object.
 */
export class TopologyInputError extends Error {
  override name = 'TopologyInputError';
  /** The OVN network name whose rendering failed, when one was. */
  network?: string;

  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${field}: ${JSON.stringify(value)} ${reason}`);
  }
}

/** Run one network's part of the render; a TopologyInputError it throws names that network. */
export function forNetwork<T>(network: string, render: () => T): T {
  try {
    return render();
  } catch (error) {
    if (error instanceof TopologyInputError) error.network ??= network;
    throw error;
  }
}
