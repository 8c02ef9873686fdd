/**
 * The VRF membership plan of one node (pure): from the node's facts and each active Uplink-backed
 * CUDN's host interface, bridge and routing domain, the ordered idempotent host steps (argv only)
 * and one outcome per CUDN. Upstream's moves (uplink-upstream.md §4.4): create the VRF when
 * missing, drop managed default routes from its table, keep IPv6 addresses across the enslave,
 * capture the interface's main-table routes, enslave, re-add them into the VRF table; release the
 * same way back into main, only where we made the membership.
 *
 * Ownership: a VRF device we create carries the alias `ovnk.io/owner=<owner>` (the device is ours,
 * so its alias is ours to set, and the marker lives and dies with the device); a membership we make
 * is recorded in /run/ovnk/vrf/<interface>.json, not in the interface's alias, because the host
 * interface and its alias belong to the administrator, and /run (a tmpfs) is cleared on reboot
 * exactly when the kernel forgets the membership too.
 */
import { OWNER_KEY } from '../model/externalIds';
import { bridgeConflicts, type VrfConflict } from './vrfConflict';
import { managementPortName, type RoutingDomain, vrfTableFor } from './vrfDomain';
import {
  type LinkFact,
  MAIN_TABLE,
  movableRoutes,
  OVNK_PROTOCOL,
  type RouteFact,
  routeAddArgv,
  routeDelArgv,
} from './vrfHost';

export interface VrfIntent {
  cudn: string;
  networkId: number;
  hostInterface: string;
  bridge: string;
  domain: RoutingDomain;
}

export interface OwnedMembership {
  interface: string;
  vrf: string;
  cudn: string;
  owner: string;
}

export interface VrfHostFacts {
  node: string;
  links: LinkFact[];
  routes: RouteFact[];
  /** The interface this node's SSH session uses: never enslaved. */
  managementInterface?: string;
  ipv6: boolean;
  memberships: OwnedMembership[];
  /** Whether the kernel has VRF devices (`absent`: none loaded and no module to load); unknown when not looked at. */
  vrfSupport?: 'loaded' | 'loadable' | 'absent';
}

export interface VrfStep {
  summary: string;
  argv: string[];
  stdin?: string;
  /** "File exists" from this step is success (a route already in place). */
  tolerate?: 'exists';
  /** The step only keeps our own membership records: the host's membership is already right. */
  bookkeeping?: true;
}

export type VrfOutcomeState = 'enslaved' | 'default' | 'conflict' | 'refused';

export interface VrfOutcome {
  cudn: string;
  state: VrfOutcomeState;
  reason?: 'UplinkConfigurationConflict' | 'UplinkVRFAttachmentFailed';
  message?: string;
  /** The plan has steps for this CUDN (an enslave or a release). */
  changed?: true;
}

export interface VrfPlan {
  steps: VrfStep[];
  outcomes: VrfOutcome[];
}

/** The steps that change the host's VRF membership (drift when only observed), in words. */
export const membershipChanges = (plan: VrfPlan): string[] =>
  plan.steps.filter((s) => !s.bookkeeping).map((s) => s.summary);

export const MEMBERSHIP_DIR = '/run/ovnk/vrf';
export const ownerAlias = (owner: string): string => `${OWNER_KEY}=${owner}`;
export const membershipFile = (iface: string): string => `${MEMBERSHIP_DIR}/${iface}.json`;

interface Context {
  facts: VrfHostFacts;
  owner: string;
  links: Map<string, LinkFact>;
  steps: VrfStep[];
  /** VRF -> slaves after the plan (to decide which VRFs of ours nothing uses). */
  slaves: Map<string, Set<string>>;
}

export function planVrf(facts: VrfHostFacts, intents: VrfIntent[], owner: string): VrfPlan {
  const ctx: Context = {
    facts,
    owner,
    links: new Map(facts.links.map((l) => [l.name, l])),
    steps: [],
    slaves: slavesOf(facts.links),
  };
  const conflicts = new Map<string, VrfConflict>(bridgeConflicts(facts.node, intents).map((c) => [c.cudn, c]));
  const outcomes = intents.map((intent): VrfOutcome => {
    const conflict = conflicts.get(intent.cudn);
    if (conflict) return { cudn: intent.cudn, state: 'conflict', reason: conflict.reason, message: conflict.message };
    return intent.domain.kind === 'vrf' ? attach(ctx, intent, intent.domain.vrf) : detach(ctx, intent);
  });
  releaseOrphans(ctx, intents);
  const kept = new Set(intents.filter((i) => i.domain.kind === 'vrf').map((i) => (i.domain as { vrf: string }).vrf));
  deleteUnusedVrfs(ctx, kept);
  return { steps: ctx.steps, outcomes };
}

function slavesOf(links: LinkFact[]): Map<string, Set<string>> {
  const slaves = new Map<string, Set<string>>();
  for (const link of links)
    if (link.master) slaves.set(link.master, new Set([...(slaves.get(link.master) ?? []), link.name]));
  return slaves;
}

function refuse(intent: VrfIntent, reason: VrfOutcome['reason'], message: string): VrfOutcome {
  return { cudn: intent.cudn, state: 'refused', reason, message };
}

function attach(ctx: Context, intent: VrfIntent, vrf: string): VrfOutcome {
  const iface = intent.hostInterface;
  const link = ctx.links.get(iface);
  const vrfLink = ctx.links.get(vrf);
  if (iface === ctx.facts.managementInterface) {
    return refuse(
      intent,
      'UplinkVRFAttachmentFailed',
      `refusing to enslave ${iface} into VRF ${vrf} on node ${ctx.facts.node}: it is the node's management interface (this SSH session reaches the node through it), and enslaving it would cut the node off`,
    );
  }
  if (!link)
    return refuse(
      intent,
      'UplinkVRFAttachmentFailed',
      `host interface ${iface} does not exist on node ${ctx.facts.node}`,
    );
  if (vrfLink && vrfLink.kind !== 'vrf')
    return refuse(
      intent,
      'UplinkVRFAttachmentFailed',
      `cannot use ${vrf} as the VRF of CUDN ${intent.cudn} on node ${ctx.facts.node}: a ${vrfLink.kind ?? 'non-VRF'} device of that name exists`,
    );
  if (link.master === vrf) return { cudn: intent.cudn, state: 'enslaved' };
  if (link.master)
    return {
      cudn: intent.cudn,
      state: 'conflict',
      reason: 'UplinkConfigurationConflict',
      message: `interface ${iface} is already assigned to VRF ${link.master} and cannot be assigned to VRF ${vrf}`,
    };
  if (!vrfLink && ctx.facts.vrfSupport === 'absent') {
    return refuse(
      intent,
      'UplinkVRFAttachmentFailed',
      `node ${ctx.facts.node} cannot create VRF ${vrf} for CUDN ${intent.cudn}: its kernel has no VRF support (no vrf module loaded or loadable); VRF-Lite needs a kernel with CONFIG_NET_VRF`,
    );
  }
  const table =
    vrfLink?.table ?? vrfTableFor(intent.networkId, ctx.links.get(managementPortName(intent.networkId))?.index);
  if (!vrfLink) createVrf(ctx, vrf, table);
  enslave(ctx, iface, vrf, table, intent.cudn);
  return { cudn: intent.cudn, state: 'enslaved', changed: true };
}

function createVrf(ctx: Context, vrf: string, table: number): void {
  ctx.steps.push(
    {
      summary: `create VRF ${vrf} (table ${table})`,
      argv: ['ip', 'link', 'add', vrf, 'type', 'vrf', 'table', String(table)],
    },
    { summary: `mark VRF ${vrf} as ours`, argv: ['ip', 'link', 'set', 'dev', vrf, 'alias', ownerAlias(ctx.owner)] },
    { summary: `bring VRF ${vrf} up`, argv: ['ip', 'link', 'set', 'dev', vrf, 'up'] },
  );
  ctx.links.set(vrf, { name: vrf, index: -1, kind: 'vrf', table, alias: ownerAlias(ctx.owner) });
}

function enslave(ctx: Context, iface: string, vrf: string, table: number, cudn: string): void {
  const managedDefaults = ctx.facts.routes.filter(
    (r) => r.table === table && r.dst === 'default' && r.protocol === OVNK_PROTOCOL && r.gateway,
  );
  for (const route of managedDefaults)
    ctx.steps.push({
      summary: `remove managed default route via ${route.gateway} from VRF ${vrf}`,
      argv: routeDelArgv(route),
    });
  if (ctx.facts.ipv6)
    ctx.steps.push({
      summary: `keep ${iface}'s IPv6 addresses across the enslave`,
      argv: ['sysctl', '-w', `net.ipv6.conf.${iface}.keep_addr_on_down=1`],
    });
  ctx.steps.push({
    summary: `enslave ${iface} into VRF ${vrf}`,
    argv: ['ip', 'link', 'set', 'dev', iface, 'master', vrf],
  });
  moveRoutes(ctx, movableRoutes(ctx.facts.routes, MAIN_TABLE, iface), table, `VRF ${vrf}`);
  const record: OwnedMembership = { interface: iface, vrf, cudn, owner: ctx.owner };
  ctx.steps.push({
    summary: `record that we made ${iface}'s membership of ${vrf}`,
    argv: ['sh', '-c', 'mkdir -p "$1" && cat > "$2"', 'sh', MEMBERSHIP_DIR, membershipFile(iface)],
    stdin: `${JSON.stringify(record)}\n`,
    bookkeeping: true,
  });
  if (!ctx.slaves.has(vrf)) ctx.slaves.set(vrf, new Set());
  ctx.slaves.get(vrf)!.add(iface);
}

function moveRoutes(ctx: Context, routes: RouteFact[], table: number, where: string): void {
  for (const route of routes)
    ctx.steps.push({
      summary: `restore route ${route.dst}${route.gateway ? ` via ${route.gateway}` : ''} into ${where}`,
      argv: routeAddArgv(route, table),
      tolerate: 'exists',
    });
}

/** Default domain: release the interface only when we made its membership and it is still in that VRF. */
function detach(ctx: Context, intent: VrfIntent): VrfOutcome {
  const owned = ctx.facts.memberships.find((m) => m.interface === intent.hostInterface && m.owner === ctx.owner);
  if (!owned) return { cudn: intent.cudn, state: 'default' };
  release(ctx, owned);
  return { cudn: intent.cudn, state: 'default', changed: true };
}

function release(ctx: Context, owned: OwnedMembership): void {
  const link = ctx.links.get(owned.interface);
  const table = ctx.links.get(owned.vrf)?.table;
  if (link?.master === owned.vrf && table !== undefined) {
    ctx.steps.push({
      summary: `release ${owned.interface} from VRF ${owned.vrf}`,
      argv: ['ip', 'link', 'set', 'dev', owned.interface, 'nomaster'],
    });
    moveRoutes(ctx, movableRoutes(ctx.facts.routes, table, owned.interface), MAIN_TABLE, 'the main table');
    ctx.slaves.get(owned.vrf)?.delete(owned.interface);
  }
  ctx.steps.push({
    summary: `forget the membership record of ${owned.interface}`,
    argv: ['rm', '-f', membershipFile(owned.interface)],
    bookkeeping: true,
  });
}

/** Memberships we made for CUDNs no longer active here (or on another interface now): release them. */
function releaseOrphans(ctx: Context, intents: VrfIntent[]): void {
  const claimed = new Set(intents.map((i) => i.hostInterface));
  for (const owned of ctx.facts.memberships)
    if (owned.owner === ctx.owner && !claimed.has(owned.interface)) release(ctx, owned);
}

/** Delete VRF devices we created that no intent needs and no interface uses after the plan. */
function deleteUnusedVrfs(ctx: Context, kept: Set<string>): void {
  for (const link of ctx.facts.links) {
    if (link.kind !== 'vrf' || link.alias !== ownerAlias(ctx.owner) || kept.has(link.name)) continue;
    if ((ctx.slaves.get(link.name)?.size ?? 0) > 0) continue;
    ctx.steps.push({
      summary: `delete VRF ${link.name}, which we created and nothing uses`,
      argv: ['ip', 'link', 'del', 'dev', link.name],
    });
  }
}
