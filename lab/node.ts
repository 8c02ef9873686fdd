/**
 * One simulated node: a network namespace with a mgmt veth (sshd, Southbound client) and an MTU 9000
 * underlay veth in the OVS gateway bridge `breth0` (netdev, holding the node address, the encap IP
 * and the default route, as upstream's shared gateway expects), its own Open_vSwitch
 * ovsdb-server, ovs-vswitchd (userspace datapath), ovn-controller (geneve; connected to its
 * zone's Southbound in the per-node layout, to the central one otherwise), and sshd.
 */
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { failing } from './errors';
import { exec, inNamespace, inRoot, ipBatch, sleep } from './exec';
import { type LabLayout, type NodeLayout, nodeIp6, UNDERLAY6_PREFIX, underlayGateway6, zoneLayoutOf } from './layout';
import type { DaemonRecord } from './processes';
import { prepareFakeRun, startSshd } from './sshd';
import { zoneOf } from './zones';

export const GATEWAY_BRIDGE = 'breth0';
/** The prefix of the node address on breth0 (the underlay subnet). */
export const GATEWAY_PREFIX = 24;
export const nodeDbSocket = (node: NodeLayout): string => path.join(node.runDir, 'db.sock');

export function nodeDaemons(node: NodeLayout): DaemonRecord[] {
  const pid = (file: string): string => path.join(node.runDir, file);
  return [
    { name: `${node.name}/sshd`, program: 'sshd', pidFile: pid('sshd.pid') },
    { name: `${node.name}/ovn-controller`, program: 'ovn-controller', pidFile: pid('ovn-controller.pid') },
    { name: `${node.name}/ovs-vswitchd`, program: 'ovs-vswitchd', pidFile: pid('ovs-vswitchd.pid') },
    { name: `${node.name}/ovsdb-server`, program: 'ovsdb-server', pidFile: pid('ovsdb-server.pid') },
  ];
}

function nodeEnv(node: NodeLayout): NodeJS.ProcessEnv {
  const { runDir, logDir, dbDir } = node;
  return { OVS_RUNDIR: runDir, OVS_LOGDIR: logDir, OVS_DBDIR: dbDir, OVN_RUNDIR: runDir, OVN_LOGDIR: logDir };
}

/**
 * The node's kernel answers ARP only for addresses on the link asked (arp_ignore 1) and asks from
 * the address of the link it asks on (arp_announce 2). With Linux's defaults, eth1 (the underlay
 * port in breth0, whose frames the kernel also receives: the userspace datapath reads them
 * beside it, where a real node's kernel datapath takes them away) and eth0 (the mgmt link, on the
 * fabric's one L2 segment) answered an ARP request for the node address with their own MACs,
 * beside breth0. The asking node's ovs-vswitchd keeps the last answer for its tunnels (tnl/neigh):
 * when breth0's came first, geneve went to eth1's MAC, which breth0 does not take, and every
 * pod lost its traffic to that node until the entry was replaced, more often the busier the machine.
 */
const NODE_SYSCTLS = ['net.ipv4.conf.all.arp_ignore=1', 'net.ipv4.conf.all.arp_announce=2'];

async function createLinks(layout: LabLayout, node: NodeLayout): Promise<void> {
  const { namespace: ns, fabricMgmtLink: m, fabricUnderlayLink: u } = node;
  await exec(['ip', 'netns', 'add', ns]);
  await exec(inNamespace(ns, ['sysctl', '-q', '-w', ...NODE_SYSCTLS]));
  await ipBatch(
    [
      `link add ${m} type veth peer name eth0 netns ${ns}`,
      `link add ${u} mtu 9000 type veth peer name eth1 mtu 9000 netns ${ns}`,
      `link set ${m} master br0 up`,
      `link set ${u} master br0 up`,
    ],
    layout.fabricNamespace,
  );
  await ipBatch(
    ['link set lo up', `addr add ${node.mgmtIp}/${layout.mgmtPrefix} dev eth0`, 'link set eth0 up', 'link set eth1 up'],
    ns,
  );
}

/** The node's Southbound: its own zone's (marked interconnect, so it tunnels to remote chassis), or the central one. */
function southbound(layout: LabLayout, node: NodeLayout): string[] {
  if (zoneLayoutOf(layout) === 'central') return [`external_ids:ovn-remote=tcp:${layout.centralIp}:${layout.sbPort}`];
  return [`external_ids:ovn-remote=${zoneOf(layout, node).sb}`, 'external_ids:ovn-is-interconn=true'];
}

function openVswitchSettings(layout: LabLayout, node: NodeLayout): string[] {
  return [
    'init',
    '--',
    'set',
    'Open_vSwitch',
    '.',
    `external_ids:system-id=${node.chassisId}`,
    `external_ids:hostname=${node.name}`,
    ...southbound(layout, node),
    'external_ids:ovn-encap-type=geneve',
    `external_ids:ovn-encap-ip=${node.encapIp}`,
    'external_ids:ovn-bridge-datapath-type=netdev',
    `external_ids:ovn-bridge-mappings=physnet:${GATEWAY_BRIDGE}`,
    '--',
    'add-br',
    GATEWAY_BRIDGE,
    '--',
    'set',
    'Bridge',
    GATEWAY_BRIDGE,
    'datapath_type=netdev',
    '--',
    'add-port',
    GATEWAY_BRIDGE,
    'eth1',
    '--',
    'set',
    'Interface',
    GATEWAY_BRIDGE,
    'mtu_request=9000',
  ];
}

async function startOvs(layout: LabLayout, node: NodeLayout, root: string | undefined): Promise<void> {
  const env = nodeEnv(node);
  const run = (argv: string[]) => exec(inNamespace(node.namespace, inRoot(root, argv)), { env });
  const common = (name: string) => [
    `--pidfile=${path.join(node.runDir, `${name}.pid`)}`,
    `--log-file=${path.join(node.logDir, `${name}.log`)}`,
    '--detach',
    '--no-chdir',
  ];
  const db = path.join(node.dbDir, 'conf.db');
  await exec(inRoot(root, ['ovsdb-tool', 'create', db, '/usr/share/openvswitch/vswitch.ovsschema']), { env });
  // no --unixctl: ovs-appctl -t ovsdb-server finds <name>.<pid>.ctl in the run dir
  await run([
    'ovsdb-server',
    db,
    `--remote=punix:${nodeDbSocket(node)}`,
    '--remote=db:Open_vSwitch,Open_vSwitch,manager_options',
    ...common('ovsdb-server'),
  ]);
  await run(['ovs-vsctl', `--db=unix:${nodeDbSocket(node)}`, '--no-wait', ...openVswitchSettings(layout, node)]);
  await run(['ovs-vswitchd', `unix:${nodeDbSocket(node)}`, ...common('ovs-vswitchd')]);
  // ovn-controller 23.03 rejects --unixctl
  await run(['ovn-controller', `unix:${nodeDbSocket(node)}`, ...common('ovn-controller')]);
}

async function configureGatewayBridge(layout: LabLayout, node: NodeLayout): Promise<void> {
  for (let tries = 0; ; tries++) {
    const shown = await exec(['ip', '-n', node.namespace, 'link', 'show', GATEWAY_BRIDGE], { okCodes: [1] });
    if (shown.code === 0) break;
    if (tries > 200)
      throw failing(
        `node ${node.name}: ovs-vswitchd did not create ${GATEWAY_BRIDGE}; see ${path.join(node.logDir, 'ovs-vswitchd.log')}`,
      );
    await sleep(10);
  }
  await ipBatch(
    [
      `addr add ${node.encapIp}/${GATEWAY_PREFIX} dev ${GATEWAY_BRIDGE}`,
      `addr add ${nodeIp6(layout, node)}/${UNDERLAY6_PREFIX} dev ${GATEWAY_BRIDGE} nodad`,
      `link set ${GATEWAY_BRIDGE} up`,
      `route add default via ${layout.underlayGateway} dev ${GATEWAY_BRIDGE}`,
      `route add default via ${underlayGateway6(layout)} dev ${GATEWAY_BRIDGE}`,
    ],
    node.namespace,
  );
}

/** breth0's MAC as the node sees it: the gateway routers' external ports take it (upstream's l3-gateway-config). */
async function gatewayMacOf(node: NodeLayout): Promise<string> {
  const { stdout } = await exec(['ip', '-n', node.namespace, '-j', 'link', 'show', GATEWAY_BRIDGE]);
  const mac = (JSON.parse(stdout) as { address?: string }[])[0]?.address;
  if (mac === undefined)
    throw failing(`node ${node.name}: ip -j link show ${GATEWAY_BRIDGE} gave no address: ${stdout}`);
  return mac;
}

/**
 * Frames to breth0's MAC belong to the host: a static FDB entry on the bridge's own port, as
 * upstream's gateway init sets it (ovnkube-node's SetStaticFDBEntry). The gateway routers'
 * external ports share that MAC and the node IP (upstream's shared gateway) and send from it
 * through their localnet patch ports, so plain MAC learning would now and then send the node's
 * own traffic (geneve included) into OVN. With a static entry NORMAL keeps delivering to the host,
 * and the gateway flows ovnk writes on breth0 (issue 20) still reach the routers by their own
 * outputs.
 */
export async function pinHostMac(
  node: NodeLayout,
  root: string | undefined,
  mac: string,
  bridge = GATEWAY_BRIDGE,
): Promise<void> {
  const argv = ['ovs-appctl', '-t', 'ovs-vswitchd', 'fdb/add', bridge, bridge, '0', mac];
  await exec(inNamespace(node.namespace, inRoot(root, argv)), { env: nodeEnv(node) });
}

/** Starts the node; returns breth0's MAC (recorded in the lab state). */
export async function startNode(
  layout: LabLayout,
  node: NodeLayout,
  root: string | undefined,
): Promise<{ gatewayMac: string }> {
  for (const dir of [node.runDir, node.logDir, node.dbDir]) mkdirSync(dir, { recursive: true });
  prepareFakeRun(node);
  await createLinks(layout, node);
  await startOvs(layout, node, root);
  await Promise.all([configureGatewayBridge(layout, node), startSshd(layout, node, root)]);
  const gatewayMac = await gatewayMacOf(node);
  await pinHostMac(node, root, gatewayMac);
  return { gatewayMac };
}
