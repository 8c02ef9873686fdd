/**
 * The entry point: all NB rows of one network in one zone (secondary ones: secondary.ts), sorted by table and
 * identity so the output does not depend on input order. Rows rendered twice (the same route
 * reached from two nodes) must be identical; a conflict is a bug and throws.
 */
import { advertisedAddressSets } from './advertised';
import { resolve, type NetworkContext } from './context';
import { networkGroups, serviceBalancers } from './groups';
import { managementPort } from './names';
import { staticMacBindings } from './gateway';
import type { RenderInput } from './input';
import { renderLayer2 } from './layer2';
import { renderLayer3 } from './layer3';
import { renderPodPorts } from './pods';
import { renderSecondary } from './secondary';
import { identityOf, type DesiredRow } from './rows';

/**
 * The rows once each, sorted by table then identity (rows.ts `sortRows` order), each keyed once.
 * A repeated identity is checked by its columns (rarely: a route reached from two nodes).
 */
function uniqueSorted(rows: DesiredRow[]): DesiredRow[] {
  const seen = new Map<string, DesiredRow>();
  for (const r of rows) {
    const id = `${r.table}\u0000${identityOf(r)}`;
    const before = seen.get(id);
    if (before === undefined) seen.set(id, r);
    else if (before !== r && JSON.stringify(before.columns) !== JSON.stringify(r.columns)) {
      throw new Error(`internal: two different ${r.table} rows named ${identityOf(r)}`);
    }
  }
  return [...seen.keys()].sort().map((id) => seen.get(id)!);
}

/**
 * Every NB row of `input.network` for `input.zone`, including the Static_MAC_Binding rows of the
 * local gateway routers (no external_ids: nb owns them through its ledger, by `<logical_port>/<ip>`).
 */
export function renderNetwork(input: RenderInput): DesiredRow[] {
  const ctx = resolve(input);
  // Dynamic UDN: a zone whose nodes the network is not active on runs no controller for it
  if (ctx.local.length === 0) return [];
  const pods = renderPodPorts(ctx, input);
  if (ctx.role === 'secondary') return uniqueSorted(renderSecondary(ctx, pods));
  const rows = ctx.topology === 'layer3' ? renderLayer3(ctx, pods) : renderLayer2(ctx, [...pods.values()].flat());
  const groups = networkGroups(
    ctx,
    managementPorts(ctx),
    serviceBalancers(ctx, input.network.services ?? [], input.pods ?? []),
  );
  const sets = ctx.advertised ? advertisedAddressSets(ctx) : [];
  return uniqueSorted([...rows, ...groups, ...sets, ...ctx.local.flatMap((node) => staticMacBindings(ctx, node))]);
}

/** The zone's management ports: one per local node (Layer2: the one its layer2 switch holds). */
function managementPorts(ctx: NetworkContext): string[] {
  const owners = ctx.topology === 'layer3' ? ctx.local : ctx.local.slice(0, 1);
  return owners.map((n) => managementPort(ctx.p, n.name));
}

/**
 * Columns that differ between the central and the per-node layout for the same row (see the
 * header comments of layer2.ts and layer3.ts); besides these, only reference columns differ
 * (a zone holds other children) and the per-node layout's remote stand-ins for other nodes.
 */
export const PER_LAYOUT_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  Logical_Router: ['options'],
  Logical_Switch: ['other_config'],
  Logical_Router_Port: ['gateway_chassis'],
  NAT: ['gateway_port'],
};
