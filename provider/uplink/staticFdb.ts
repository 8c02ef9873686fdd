/**
 * The static FDB entry upstream's ovnkube-node pins on each Uplink bridge it configures
 * (go-controller/pkg/node/gateway_udn.go ensureUplinkGateway -> configureUplinkStaticFDBEntry ->
 * util.SetStaticFDBEntry, `ovs-appctl fdb/add <bridge> <port> <vlan> <mac>`): the UplinkState's MAC
 * (`status.macAddress`) on the bridge port that owns it (bridgeconfig.go GetStaticFDBPort and
 * gatewayHostOVSInterface: the host interface's port when that is a port of the bridge other than
 * the bridge's own, else the bridge's own port, LOCAL), in VLAN `config.Gateway.VLANID`. ovnk models
 * no gateway VLAN, so that is 0 (upstream's default). Upstream's DPU modes are not modelled.
 *
 * The entry lives in ovs-vswitchd only (not in OVSDB): a restart of ovs-vswitchd loses it, and so
 * does deleting a port of any bridge that had learnt the MAC (ofproto-dpif.c bundle_destroy expires
 * it in every bridge, static entries included). Upstream writes it once and never removes it; ovnk
 * records what it pinned under `ovnk.io/static-fdb/<owner>` on the Open_vSwitch row, reports a
 * missing entry as drift, pins it again on apply and removes (`fdb/del`) on delete only what an
 * owner of ours recorded and no other owner still records. An entry already there that no owner
 * recorded is someone else's: left alone, never recorded. Pure.
 */
import { STATIC_FDB_PREFIX } from '../model/externalIds';
import { findCondition, type UplinkState } from './conditions';
import type { OvsFacts } from './facts';

export interface StaticFdbEntry {
  bridge: string;
  /** The OVS port name (`fdb/add` takes it); the bridge's own name for LOCAL. */
  port: string;
  vlan: number;
  /** Lower case. */
  mac: string;
}

/** `config.Gateway.VLANID`: ovnk has no gateway VLAN, so upstream's default. */
export const GATEWAY_VLAN = 0;

export const ownedFdbKey = (owner: string): string => `${STATIC_FDB_PREFIX}${owner}`;

/** `bridge/port/vlan/mac`: the record's form (interface names hold no `/` or `,`). */
export const fdbEntryText = (e: StaticFdbEntry): string => `${e.bridge}/${e.port}/${e.vlan}/${e.mac}`;

/** The entry in words, for reports: `<mac> on <port> (VLAN <vlan>)`. */
export const fdbEntryWords = (e: StaticFdbEntry): string =>
  `${e.mac} on ${e.port === e.bridge ? 'LOCAL' : e.port} (VLAN ${e.vlan})`;

/** What `fdb/del <bridge> <vlan> <mac>` names: one bridge holds one entry per VLAN and MAC. */
export const fdbSlot = (e: StaticFdbEntry): string => `${e.bridge}/${e.vlan}/${e.mac}`;

export function parseFdbRecord(text: string | undefined): StaticFdbEntry[] {
  return (text ?? '').split(',').flatMap((item) => {
    const match = /^([^/]+)\/([^/]+)\/(\d+)\/((?:[0-9a-f]{2}:){5}[0-9a-f]{2})$/.exec(item);
    return match ? [{ bridge: match[1]!, port: match[2]!, vlan: Number(match[3]), mac: match[4]! }] : [];
  });
}

/** The record's text, sorted; undefined (the key removed) when there is nothing to record. */
export function formatFdbRecord(entries: readonly StaticFdbEntry[]): string | undefined {
  const texts = [...new Set(entries.map(fdbEntryText))].sort();
  return texts.length > 0 ? texts.join(',') : undefined;
}

/** Every other owner's recorded entries on the node (their records sit beside ours). */
export function othersRecords(externalIds: Readonly<Record<string, string>>, owner: string): StaticFdbEntry[] {
  const mine = ownedFdbKey(owner);
  return Object.entries(externalIds)
    .filter(([key]) => key.startsWith(STATIC_FDB_PREFIX) && key !== mine)
    .flatMap(([, text]) => parseFdbRecord(text));
}

/** The port of `bridge` holding the host interface, as GetStaticFDBPort picks it. */
function fdbPortOf(ovs: OvsFacts, bridge: string, host: string | undefined): string | undefined {
  if (host === undefined || host === bridge) return bridge;
  const ports = ovs.bridges.find((b) => b.name === bridge)?.ports ?? [];
  return ovs.ports.find((p) => ports.includes(p.name) && (p.name === host || p.interfaces.includes(host)))?.name;
}

/**
 * The entries the node's step wants: one per bridge of its desired mappings, from the resolved
 * UplinkState of that bridge on the node (upstream pins it when it configures the network's
 * Uplink gateway).
 */
export function wantedFdbEntries(
  step: { node: string; desired: readonly { bridge: string }[] },
  states: readonly UplinkState[],
  ovs: OvsFacts,
): StaticFdbEntry[] {
  const out = new Map<string, StaticFdbEntry>();
  for (const { bridge } of step.desired) {
    const resolved = states.filter(
      (s) =>
        s.spec.nodeName === step.node &&
        s.status.ovsBridge?.name === bridge &&
        findCondition(s.status.conditions, 'Resolved')?.status === 'True',
    );
    for (const state of resolved) {
      const port = fdbPortOf(ovs, bridge, state.status.hostInterfaceName);
      const mac = state.status.macAddress?.toLowerCase();
      if (port === undefined || mac === undefined) continue;
      const entry = { bridge, port, vlan: GATEWAY_VLAN, mac };
      out.set(fdbEntryText(entry), entry);
    }
  }
  return [...out.values()].sort((a, b) => (fdbEntryText(a) < fdbEntryText(b) ? -1 : 1));
}

/** One static line of `ovs-appctl fdb/show`: the port as it prints it (an ofport number or LOCAL). */
export interface ShownFdbEntry {
  port: string;
  vlan: number;
  mac: string;
}

/** The static entries of `fdb/show` (` port  VLAN  MAC  Age`; learnt entries give their age in seconds). */
export function parseFdbShow(text: string): ShownFdbEntry[] {
  return text.split('\n').flatMap((line) => {
    const match = /^\s*(\S+)\s+(\d+)\s+((?:[0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2})\s+static\s*$/.exec(line);
    return match ? [{ port: match[1]!, vlan: Number(match[2]), mac: match[3]!.toLowerCase() }] : [];
  });
}

/** How `fdb/show` names the entry's port: LOCAL for the bridge's own, else its interface's ofport. */
export function fdbShowPort(entry: StaticFdbEntry, ovs: OvsFacts): string | undefined {
  if (entry.port === entry.bridge) return 'LOCAL';
  const port = ovs.ports.find((p) => p.name === entry.port);
  const names = port ? [entry.port, ...port.interfaces] : [entry.port];
  const ofport = ovs.interfaces.find((i) => names.includes(i.name) && i.ofport !== undefined)?.ofport;
  return ofport === undefined ? undefined : String(ofport);
}
