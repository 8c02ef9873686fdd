/**
 * Helpers of the egress lab tests: a packet capture on a link of the lab's fabric namespace (the
 * segments' external hosts live there), our flows on a node's bridge, a ping from a pod. The
 * capture (capture-helpers.ts) prints `source destination` of every ICMP (or ICMPv6) echo
 * request the link sees.
 */
import { spawnSync } from 'node:child_process';
import { type LabNodeStatus, type LabStatus, readState } from '../../lab';
import { anyOfOursMatch } from '../../provider/uplink/flows';
import { framesSeen } from './capture-helpers';
import { podNetns } from './networks-helpers';
import { onNode } from './uplink-helpers';

/**
 * Which echo requests a capture prints: IPv4 ones the link itself sends or receives (ETH_P_IP, the
 * default), IPv4 ones in every frame of the link (ETH_P_ALL: a socket for one protocol never sees
 * the frames a bridge port hands to its bridge, e.g. the nodes' underlay links on the fabric's
 * br0), or ICMPv6 ones (ethertype 0x86dd, next header 58, type 128).
 */
export type EchoCapture = 'ipv4' | 'ipv4-bridge-port' | 'ipv6';

const PROTOCOL: Record<EchoCapture, string> = { ipv4: '0x0800', 'ipv4-bridge-port': '3', ipv6: '0x86dd' };
const IPV4_ECHO_REQUEST = `if f[12:14] == b'\\x08\\x00' and len(ip) > 20 and ip[9] == 1 and ip[(ip[0] & 15) * 4] == 8:
        print(socket.inet_ntoa(ip[12:16]), socket.inet_ntoa(ip[16:20]), flush=True)`;
const ECHO_REQUEST: Record<EchoCapture, string> = {
  ipv4: IPV4_ECHO_REQUEST,
  'ipv4-bridge-port': IPV4_ECHO_REQUEST,
  ipv6: `if f[12:14] == b'\\x86\\xdd' and len(ip) > 40 and ip[6] == 58 and ip[40] == 128:
        print(socket.inet_ntop(socket.AF_INET6, ip[8:24]), socket.inet_ntop(socket.AF_INET6, ip[24:40]), flush=True)`,
};

export const fabricOf = (lab: LabStatus): string => readState(lab.name)!.layout.fabricNamespace;

/** Capture echo requests on `links` of the fabric namespace while `during` runs; `source destination` lines. */
export function echoRequestsSeen(
  lab: LabStatus,
  links: string[],
  during: () => Promise<void>,
  { capture = 'ipv4', seconds = 6 }: { capture?: EchoCapture; seconds?: number } = {},
): Promise<Record<string, string[]>> {
  const filter = { protocol: PROTOCOL[capture], print: ECHO_REQUEST[capture] };
  return framesSeen(fabricOf(lab), links, filter, during, seconds);
}

/** How many of `count` pings from network namespace `netns` to `address` were answered. */
function answered(netns: string, address: string, count: number): number {
  const argv = ['netns', 'exec', netns, 'ping', '-c', String(count), '-W', '1', address];
  const out = spawnSync('ip', argv, { encoding: 'utf8' }).stdout;
  return Number(/(\d+) received/.exec(out)?.[1] ?? 0);
}

/** How many of `count` pings from the pod `namespace/a` to `address` were answered. */
export function pingsAnswered(lab: LabStatus, namespace: string, address: string, count = 3): number {
  return answered(podNetns(lab, namespace, 'a'), address, count);
}

/** How many of `count` pings from the node's own network namespace (its host network) to `address` were answered. */
export function nodePingsAnswered(lab: LabStatus, node: string, address: string, count = 3): number {
  return answered(readState(lab.name)!.layout.nodes.find((n) => n.name === node)!.namespace, address, count);
}

/** Every flow of ours (any cookie tagged 0xa11, provider/uplink/flows.ts), as ovs-ofctl matches them. */
export const ourCookies = anyOfOursMatch;

/** Our flows (every owner's and the shared ones) on a node's bridge, as ovs-ofctl prints them without statistics. */
export async function ourFlows(node: LabNodeStatus, bridge: string, cookies = anyOfOursMatch): Promise<string[]> {
  const out = await onNode(node, 'ovs-ofctl', '-O', 'OpenFlow13', '--no-stats', 'dump-flows', bridge, cookies);
  return out.split('\n').filter((l) => l.includes('cookie=0xa11'));
}
