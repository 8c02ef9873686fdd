/**
 * The per-network flows of upstream's commonFlows (go-controller/pkg/node/bridgeconfig/
 * bridgeflows.go) beyond plain egress: the NoOverlay flow (priority 99, shared gateway: traffic
 * the gateway router already SNATed to the node address is committed in zone 64000 and sent out),
 * the EgressIP drop (priority 103, with --enable-egress-ip: pod traffic that reaches the bridge
 * un-SNATed is dropped) and an advertised network's routed flows (priority 300: traffic from
 * outside to the node's subnet goes to the network's patch port, or to the host in local gateway
 * mode; priority 104: the node's pods leave without SNAT). All match the network's patch port or
 * subnets only, so they carry the owner's cookie. Pure.
 */
import { type BridgeFlowInput, type BridgeNetwork, conntrackZone, familiesOf } from './flowInput';

/** `getIPv`: `ip` or `ipv6` for a CIDR. */
const ipv = (cidr: string): 'ip' | 'ipv6' => (cidr.includes(':') ? 'ipv6' : 'ip');

/**
 * Table 0 priority 99, per family: a NoOverlay network's traffic already SNATed to the node address
 * (shared gateway only).
 */
function noOverlayFlows(cookie: string, b: BridgeFlowInput, n: BridgeNetwork): string[] {
  if (!n.noOverlay || b.localGateway) return [];
  return familiesOf(b).map((f) => {
    const src = f.proto === 'ip' ? 'nw_src' : 'ipv6_src';
    return (
      `${cookie}, priority=99, in_port=${n.patchPort}, dl_src=${b.mac}, ${f.proto}, ${src}=${f.ip}, ` +
      `actions=ct(commit, zone=${conntrackZone}, nat(src=${f.ip}), exec(set_field:${n.ctMark}->ct_mark)), output:${b.physicalPort}`
    );
  });
}

/** Priority 103: with EgressIP, pod traffic of the network's subnets that was not SNATed is dropped. */
function egressIPDropFlows(cookie: string, b: BridgeFlowInput, n: BridgeNetwork): string[] {
  if (!b.egressIP) return [];
  return (n.subnets ?? []).map(
    (cidr) => `${cookie}, priority=103, in_port=${n.patchPort}, ${ipv(cidr)}, ${ipv(cidr)}_src=${cidr}, actions=drop`,
  );
}

/** Priorities 300 and 104 of an advertised network, per node subnet: routed in and out without NAT. */
function advertisedFlows(cookie: string, b: BridgeFlowInput, n: BridgeNetwork): string[] {
  if (!n.advertised) return [];
  // advertised in local gateway mode: to and from the kernel, which routes it
  const port = b.localGateway ? 'LOCAL' : n.patchPort;
  return (n.nodeSubnets ?? []).flatMap((subnet) => {
    const v = ipv(subnet);
    return [
      `${cookie}, priority=300, table=0, in_port=${b.physicalPort}, ${v}, ${v}_dst=${subnet}, actions=output:${port}`,
      `${cookie}, priority=104, in_port=${port}, dl_src=${b.mac}, ${v}, ${v}_src=${subnet}, actions=output:${b.physicalPort}`,
    ];
  });
}

/** commonFlows' NoOverlay, EgressIP and advertised flows of one network, with `cookie` (`cookie=0x…`). */
export function routedFlows(cookie: string, b: BridgeFlowInput, n: BridgeNetwork): string[] {
  return [...noOverlayFlows(cookie, b, n), ...egressIPDropFlows(cookie, b, n), ...advertisedFlows(cookie, b, n)];
}
