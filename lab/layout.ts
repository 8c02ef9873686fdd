/**
 * The lab's layout, computed from its name, index and size: namespace and interface names,
 * addresses, ports, node names and ids, chassis ids, and every path under the lab's directory.
 * Pure: no I/O. Two labs with different indexes share no namespace, address, port or root-namespace
 * interface, so named labs never collide.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { DEFAULT_LAYOUT, LAYOUTS, type Layout } from '../provider/model/zones';
import { badInput } from './errors';

export type OvnFlavor = 'bookworm' | 'trixie';
export const OVN_FLAVORS: readonly OvnFlavor[] = ['bookworm', 'trixie'];
/** The zone layout (provider/model/zones.ts): per-node, one NB, SB and northd per node; central, one of each. */
export type ZoneLayout = Layout;
export const MAX_NODES = 50;
export const MAX_INDEX = 250;
const NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

export interface NodeLayout {
  name: string;
  /** k8s.ovn.org/node-id: from 2, in node order. */
  id: number;
  chassisId: string;
  namespace: string;
  mgmtIp: string;
  encapIp: string;
  /** Interfaces inside the fabric namespace (the node's peers of eth0 and eth1). */
  fabricMgmtLink: string;
  fabricUnderlayLink: string;
  dir: string;
  runDir: string;
  logDir: string;
  dbDir: string;
  fakeRunDir: string;
  hostKeyPath: string;
  sshdConfigPath: string;
}

export interface LabLayout {
  name: string;
  index: number;
  ovn: OvnFlavor;
  /** Absent in states of labs started before per-node zones: those are central. */
  zones?: ZoneLayout;
  /** false: zones only, no node namespaces, OVS, ovn-controller or sshd (absent: true). */
  dataPlane?: boolean;
  /** Members of the central Northbound: absent or 1 standalone, more a RAFT cluster (nbCluster.ts). */
  nbMembers?: number;
  dir: string;
  fabricNamespace: string;
  /** The only interface the lab creates in the root namespace. */
  hostLink: string;
  centralIp: string;
  mgmtPrefix: number;
  underlayGateway: string;
  nbPort: number;
  sbPort: number;
  centralDir: string;
  clientKeyPath: string;
  authorizedKeysPath: string;
  nodes: NodeLayout[];
}

export function checkLabName(name: string): string {
  if (!NAME_PATTERN.test(name)) {
    throw badInput(
      `lab name "${name}" is not usable: use 1-32 lowercase letters, digits or dashes, starting with a letter`,
    );
  }
  return name;
}

export function checkNodeCount(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_NODES) {
    throw badInput(`--nodes ${value} is not usable: give a whole number from 1 to ${MAX_NODES}`);
  }
  return value;
}

export function checkOvnFlavor(value: string): OvnFlavor {
  if (!(OVN_FLAVORS as readonly string[]).includes(value)) {
    throw badInput(`--ovn ${value} is not known: use one of ${OVN_FLAVORS.join(', ')}`);
  }
  return value as OvnFlavor;
}

export function checkZoneLayout(value: string): ZoneLayout {
  if (!(LAYOUTS as readonly string[]).includes(value)) {
    throw badInput(`--zones ${value} is not known: use one of ${LAYOUTS.join(', ')}`);
  }
  return value as ZoneLayout;
}

/** The layout's zones (central for labs recorded before the choice existed). */
export const zoneLayoutOf = (layout: LabLayout): ZoneLayout => layout.zones ?? 'central';
export const hasDataPlane = (layout: LabLayout): boolean => layout.dataPlane !== false;

/** Upstream kind-style node names: ovn-worker, ovn-worker2, ovn-worker3, ... */
/** The prefix of the IPv6 underlay (fd19:<index>::/64): breth0's IPv6 addresses and the fabric's. */
export const UNDERLAY6_PREFIX = 64;

/**
 * The fabric's IPv6 address on the underlay: the nodes' IPv6 default gateway (computed, so older
 * labs' states need nothing new).
 */
export const underlayGateway6 = (layout: Pick<LabLayout, 'index'>): string => `fd19:${layout.index}::1`;

/** A node's IPv6 address on breth0, beside its IPv4 encap address. */
export const nodeIp6 = (layout: Pick<LabLayout, 'index'>, node: Pick<NodeLayout, 'id'>): string =>
  `fd19:${layout.index}::${10 + node.id}`;

export function nodeName(position: number): string {
  return position === 1 ? 'ovn-worker' : `ovn-worker${position}`;
}

/** A stable name-based UUID (RFC 4122 version 5 layout over SHA-1) for a node's chassis. */
export function chassisIdOf(labName: string, node: string): string {
  const hash = createHash('sha1').update(`ovnk-lab/${labName}/${node}`).digest();
  hash.writeUInt8((hash.readUInt8(6) & 0x0f) | 0x50, 6); // version 5
  hash.writeUInt8((hash.readUInt8(8) & 0x3f) | 0x80, 8); // RFC 4122 variant
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Prefix of every namespace this lab creates (pods included); ends in a dash so ol1- never matches ol10-. */
export function namespacePrefix(index: number): string {
  return `ol${index}-`;
}

function nodeLayout(labName: string, index: number, labDir: string, position: number): NodeLayout {
  const name = nodeName(position);
  const id = position + 1;
  const dir = path.join(labDir, 'nodes', name);
  return {
    name,
    id,
    chassisId: chassisIdOf(labName, name),
    namespace: `${namespacePrefix(index)}n${id}`,
    mgmtIp: `198.18.${index}.${10 + id}`,
    encapIp: `198.19.${index}.${10 + id}`,
    fabricMgmtLink: `m${id}`,
    fabricUnderlayLink: `u${id}`,
    dir,
    runDir: path.join(dir, 'run'),
    logDir: path.join(dir, 'log'),
    dbDir: path.join(dir, 'db'),
    fakeRunDir: path.join(dir, 'fakerun'),
    hostKeyPath: path.join(dir, 'ssh_host_ed25519_key'),
    sshdConfigPath: path.join(dir, 'sshd_config'),
  };
}

export interface LayoutInput {
  name: string;
  index: number;
  nodes: number;
  ovn: OvnFlavor;
  zones?: ZoneLayout;
  dataPlane?: boolean;
  nbMembers?: number;
  /** The lab's own directory (state, sockets, logs, keys). */
  dir: string;
}

export function labLayout(input: LayoutInput): LabLayout {
  const { name, index, dir } = input;
  if (!Number.isInteger(index) || index < 1 || index > MAX_INDEX) {
    throw badInput(`lab index ${index} is out of range 1..${MAX_INDEX}`);
  }
  const nodes = Array.from({ length: checkNodeCount(input.nodes) }, (_, i) => nodeLayout(name, index, dir, i + 1));
  return {
    name: checkLabName(name),
    index,
    ovn: input.ovn,
    zones: input.zones ?? DEFAULT_LAYOUT,
    dataPlane: input.dataPlane ?? true,
    ...((input.nbMembers ?? 1) > 1 ? { nbMembers: input.nbMembers } : {}),
    dir,
    fabricNamespace: `${namespacePrefix(index)}f`,
    hostLink: `${namespacePrefix(index)}h`,
    centralIp: `198.18.${index}.1`,
    mgmtPrefix: 24,
    underlayGateway: `198.19.${index}.1`,
    // + 3 to + 8: the client and RAFT ports of a clustered Northbound's members (nbCluster.ts)
    nbPort: 17000 + index * 10 + 1,
    sbPort: 17000 + index * 10 + 2,
    centralDir: path.join(dir, 'central'),
    clientKeyPath: path.join(dir, 'id_ed25519'),
    authorizedKeysPath: path.join(dir, 'authorized_keys'),
    nodes,
  };
}
