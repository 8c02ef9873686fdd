/**
 * The router ports of a link (upstream §3.2): `crtor-…` on the connect router with the link's
 * even addresses and `requested-tnl-key`, and `rtocr-…` on the network router with the odd
 * addresses (a child of another owner's router: `parents`). MACs come from the first address of
 * each port's own networks. A remote Layer3 link (per-node layout) has only the `crtor-` port,
 * bound with `requested-chassis` and without a peer.
 */
import type { DesiredRow } from '../nb/desired';
import { macFromIP } from '../topology/mac';
import { connectPortName, connectRouterName, networkPortName, portIds } from './ids';
import type { Link } from './links';
import { networkRouter } from './networkNames';

const PORT = 'Logical_Router_Port';

function names(cnc: string, link: Link): { connect: string; network: string } {
  const node = link.node?.name;
  return {
    connect: connectPortName(cnc, link.network.name, node),
    network: networkPortName(cnc, link.network.name, node),
  };
}

/** Both ports of a link whose node is local to the zone: the connect router's and the network router's. */
export function localPortRows(cnc: string, link: Link): { connect: DesiredRow; network: DesiredRow } {
  const name = names(cnc, link);
  const router = networkRouter(link.network);
  const connectPort: DesiredRow = {
    table: PORT,
    columns: {
      name: name.connect,
      mac: macFromIP(link.connectSide[0]!.ip),
      networks: link.connectSide.map((s) => s.cidr),
      peer: name.network,
      options: { 'requested-tnl-key': String(link.key) },
      external_ids: portIds(cnc, link.network.id, link.nodeId, connectRouterName(cnc)),
    },
  };
  const networkPort: DesiredRow = {
    table: PORT,
    columns: {
      name: name.network,
      mac: macFromIP(link.networkSide[0]!.ip),
      networks: link.networkSide.map((s) => s.cidr),
      peer: name.connect,
      external_ids: portIds(cnc, link.network.id, link.nodeId, router),
    },
    parents: [{ table: 'Logical_Router', identity: router, column: 'ports' }],
  };
  return { connect: connectPort, network: networkPort };
}

/** The connect-router port of a remote node's Layer3 link, bound to that node's chassis. */
export function remotePortRow(cnc: string, link: Link, chassisId: string): DesiredRow {
  return {
    table: PORT,
    columns: {
      name: names(cnc, link).connect,
      mac: macFromIP(link.connectSide[0]!.ip),
      networks: link.connectSide.map((s) => s.cidr),
      options: { 'requested-tnl-key': String(link.key), 'requested-chassis': chassisId },
      external_ids: portIds(cnc, link.network.id, link.nodeId, connectRouterName(cnc)),
    },
  };
}
