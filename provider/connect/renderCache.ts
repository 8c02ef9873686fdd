/**
 * A connect's rows in a zone, memoised (topology/renderMemo.ts, issue 30.2). renderConnect is a
 * pure function of the connect input (its networks with their subnets, connect slices and host
 * subnets), the cluster's nodes and the zone: the key is a fingerprint of the three. A change to
 * a network the connect selects changes its input, so that connect renders again; the other
 * connects of the zone come from the memo.
 */
import type { Zone } from '../model/zones';
import { fingerprint, MEMO_ROWS, type MemoStats, RenderMemo } from '../topology/renderMemo';
import type { ConnectInput, ConnectNode } from './input';
import { type ConnectRender, renderConnect } from './render';

const memo = new RenderMemo<ConnectRender>(MEMO_ROWS, (r) => r.rows.length);

/** renderConnect's rows (without counts), from the memo when the same input was rendered before. */
export function renderConnectCached(input: ConnectInput, nodes: ConnectNode[], zone: Zone): ConnectRender {
  return memo.get(`${connectKey(input, nodes)} ${fingerprint(zone)}`, () => renderConnect(input, nodes, zone));
}

export const connectMemoStats = (): MemoStats => memo.stats();
export const clearConnectMemo = (): void => memo.clear();

/** Every zone of a plan renders a connect with the same objects: its key is computed once per plan. */
const keys = new WeakMap<ConnectInput, { nodes: ConnectNode[]; key: string }>();

function connectKey(input: ConnectInput, nodes: ConnectNode[]): string {
  const known = keys.get(input);
  if (known?.nodes === nodes) return known.key;
  const key = fingerprint(input, nodes);
  keys.set(input, { nodes, key });
  return key;
}
