/**
 * A network's rows in a zone, memoised (renderMemo.ts, issue 30.2). renderNetworkKeyed is a pure
 * function of its RenderInput, so the key is a fingerprint of what the network's rows read: the
 * cluster input, the network input, its pods, the zone, and of every node what it reads for this
 * network (all of the node but the host subnets and Layer2 gateway ports of other networks). A
 * change to another network, or another network's host subnets, leaves the key as it was; a
 * change to anything the rows read gives another key. Over-approximate where that is simpler: a
 * pod of the network on another node changes the key of every zone of the network.
 */
import type { NodeInput, RenderInput } from './input';
import { type Keyed, renderNetworkKeyed } from './render';
import { fingerprint, MEMO_ROWS, type MemoStats, RenderMemo } from './renderMemo';

const memo = new RenderMemo<Keyed[]>(MEMO_ROWS, (rows) => rows.length);

/** renderNetworkKeyed's rows, from the memo when the same input was rendered before. */
export function renderNetworkCached(input: RenderInput): Keyed[] {
  return memo.get(`${networkKey(input)} ${fingerprint(input.zone)}`, () => renderNetworkKeyed(input));
}

export const networkMemoStats = (): MemoStats => memo.stats();
export const clearNetworkMemo = (): void => memo.clear();

interface Known {
  cluster: RenderInput['cluster'];
  nodes: RenderInput['nodes'];
  pods: RenderInput['pods'];
  key: string;
}

/** Every zone of a plan renders a network with the same objects: its key is computed once per plan. */
const keys = new WeakMap<RenderInput['network'], Known>();

function networkKey(input: RenderInput): string {
  const known = keys.get(input.network);
  if (known && known.cluster === input.cluster && known.nodes === input.nodes && known.pods === input.pods)
    return known.key;
  const key = fingerprint(
    input.cluster,
    input.network,
    commonNodesKey(input.nodes),
    input.nodes.map((n) => [
      perNetwork(n.hostSubnets, input.network.name),
      perNetwork(n.layer2GatewayTunnelIds, input.network.name),
    ]),
    input.pods ?? [],
  );
  keys.set(input.network, { cluster: input.cluster, nodes: input.nodes, pods: input.pods, key });
  return key;
}

function perNetwork<T>(byNetwork: Record<string, T> | undefined, network: string): T | null {
  return byNetwork !== undefined && Object.hasOwn(byNetwork, network) ? byNetwork[network]! : null;
}

const commonKeys = new WeakMap<readonly NodeInput[], string>();

/** The nodes without their per-network fields: once per node list (a plan's networks share one). */
function commonNodesKey(nodes: readonly NodeInput[]): string {
  let key = commonKeys.get(nodes);
  if (key === undefined) {
    key = fingerprint(nodes.map(({ hostSubnets: _h, layer2GatewayTunnelIds: _l, ...rest }) => rest));
    commonKeys.set(nodes, key);
  }
  return key;
}
