/**
 * A renderer refusal (topology/errors.ts) as a problem that names its object: the network whose
 * rendering failed, at the field of its config the error is about (a full subnet, a join subnet
 * missing a family), or the Inventory when no network was being rendered. Before, such refusals
 * named a path `render: pods`, which points at nothing a user wrote (issue 15 point 9).
 */
import type { Cluster } from '../model/cluster';
import { configPath } from '../model/networkRules';
import { type Problem, problem } from '../model/problem';
import type { TopologyInputError } from '../topology/errors';

/** Fields of a network's config the renderer reads; any other (pods, transit) is about its subnets. */
const configFields = new Set(['subnets', 'joinSubnets', 'mtu']);

export function renderProblem(error: TopologyInputError, cluster: Cluster): Problem {
  const network = cluster.networks.find((n) => n.name === error.network);
  if (!network) return problem('InvalidField', `Inventory/${cluster.inventory.name}`, 'spec', error.message);
  const field = /^network\.(\w+)/.exec(error.field)?.[1];
  const at = `${configPath(network)}${field !== undefined && configFields.has(field) ? field : 'subnets'}`;
  return problem('InvalidField', network.ref, at, `${at}: ${error.message}`);
}
