/**
 * Packet captures of the lab tests: a raw AF_PACKET socket in python3 (Debian's; no tcpdump on
 * these machines) on links of one network namespace, printing one line per frame of interest
 * while the test does something. What a frame prints is a python snippet given `f` (the frame)
 * and `ip` (what follows the Ethernet header); egress-helpers.ts prints echo requests, this file
 * the gateway announcements a live migration would need (gratuitous ARP, router advertisements).
 */
import { execFileSync, spawn } from 'node:child_process';
import ipaddr from 'ipaddr.js';

export interface FrameFilter {
  /** The socket's protocol: an ethertype (`0x0800`), or `3` (ETH_P_ALL) for every frame both ways. */
  protocol: string;
  /** Python statements (4-space indented after the first line) that print a line for a frame of interest. */
  print: string;
}

const captureScript = ({ protocol, print }: FrameFilter): string => `
import socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.ntohs(${protocol}))
s.bind((sys.argv[1], 0))
s.settimeout(0.2)
print('ready', flush=True)
end = time.time() + float(sys.argv[2])
while time.time() < end:
    try:
        f = s.recv(2048)
    except socket.timeout:
        continue
    ip = f[14:]
    ${print}
`;

/** The lines `filter` prints for the frames of `links` in network namespace `netns` while `during` runs. */
export async function framesSeen(
  netns: string,
  links: string[],
  filter: FrameFilter,
  during: () => Promise<void>,
  seconds = 6,
): Promise<Record<string, string[]>> {
  const script = captureScript(filter);
  const captures = links.map((link) => {
    const child = spawn('ip', ['netns', 'exec', netns, 'python3', '-c', script, link, String(seconds)]);
    let out = '';
    const ready = new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready')) resolve();
      }),
    );
    const done = new Promise<string>((resolve) => child.on('close', () => resolve(out)));
    return { link, child, ready, done };
  });
  await Promise.all(captures.map((c) => c.ready));
  try {
    await during();
  } finally {
    await new Promise((r) => setTimeout(r, 500)); // the last frames reach the capture's output
    for (const c of captures) c.child.kill();
  }
  const outputs = await Promise.all(captures.map((c) => c.done));
  return Object.fromEntries(
    captures.map((c, i) => [c.link, outputs[i]!.split('\n').filter((l) => l !== '' && l !== 'ready')]),
  );
}

/**
 * Every ARP frame (`arp <op> <sender ip> <target ip>`; a gratuitous one has sender = target) and
 * every IPv6 router advertisement or neighbour advertisement (`nd <134|136> <source>`), both ways.
 */
export const gatewayAnnouncements: FrameFilter = {
  protocol: '3',
  print: `if f[12:14] == b'\\x08\\x06' and len(ip) >= 28:
        print('arp', ip[7], socket.inet_ntoa(ip[14:18]), socket.inet_ntoa(ip[24:28]), flush=True)
    elif f[12:14] == b'\\x86\\xdd' and len(ip) > 40 and ip[6] == 58 and ip[40] in (134, 136):
        print('nd', ip[40], socket.inet_ntop(socket.AF_INET6, ip[8:24]), flush=True)`,
};

/** The gratuitous ARPs (sender = target) and router advertisements among `lines` of `gatewayAnnouncements`. */
export const garpsAndAdverts = (lines: string[]): string[] =>
  lines.filter((l) => {
    const [kind, op, sender, target] = l.split(' ');
    return (kind === 'arp' && sender === target) || (kind === 'nd' && op === '134');
  });

/** The IPv6 link-local address (EUI-64) of `mac`: a router port's source address in its advertisements. */
export function linkLocalOf(mac: string): string {
  const m = mac.split(':').map((h) => parseInt(h, 16));
  return ipaddr
    .fromByteArray([0xfe, 0x80, 0, 0, 0, 0, 0, 0, m[0]! ^ 2, m[1]!, m[2]!, 0xff, 0xfe, m[3]!, m[4]!, m[5]!])
    .toString();
}

const sendScript = `
import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
s.send(bytes.fromhex(sys.argv[2]))
`;

/** Send one Ethernet frame (`hex`, from the destination MAC on) out of `link` in `netns`. */
export function sendFrame(netns: string, link: string, hex: string): void {
  execFileSync('ip', ['netns', 'exec', netns, 'python3', '-c', sendScript, link, hex]);
}

const hexOfMac = (mac: string): string => mac.replace(/:/g, '').toLowerCase();
const hexOfIp = (ip: string): string =>
  ipaddr
    .parse(ip)
    .toByteArray()
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');

/** A broadcast ARP request from `mac` with sender `sender` for `target` (gratuitous when they are equal). */
function arpRequest(mac: string, sender: string, target: string): string {
  const ethernet = 'ff'.repeat(6) + hexOfMac(mac) + '0806';
  return ethernet + '0001080006040001' + hexOfMac(mac) + hexOfIp(sender) + '00'.repeat(6) + hexOfIp(target);
}

/** Send one gratuitous ARP request (sender = target = `ip`) on `link` of `netns` (arping is not on these machines). */
export function sendGratuitousArp(netns: string, link: string, ip: string, mac: string): void {
  sendFrame(netns, link, arpRequest(mac, ip, ip));
}

/** Every ARP reply: `<sender MAC> <sender IP>`. */
const arpReplies: FrameFilter = {
  protocol: '0x0806',
  print: `if ip[6:8] == b'\\x00\\x02':
        print(':'.join('%02x' % b for b in ip[8:14]), socket.inet_ntoa(ip[14:18]), flush=True)`,
};

const linkMac = (netns: string, link: string): string =>
  (
    JSON.parse(execFileSync('ip', ['-n', netns, '-j', 'link', 'show', link], { encoding: 'utf8' })) as {
      address: string;
    }[]
  )[0]!.address;

/**
 * The sender MACs of every ARP reply to one request for `target`, sent from `sender` on `link` of
 * `netns`, collected for `seconds`: every link that answers for the address, once or more.
 */
export async function arpAnswers(
  netns: string,
  link: string,
  sender: string,
  target: string,
  seconds = 2,
): Promise<string[]> {
  const request = arpRequest(linkMac(netns, link), sender, target);
  const ask = async () => {
    sendFrame(netns, link, request);
    await new Promise((r) => setTimeout(r, seconds * 1000));
  };
  const seen = await framesSeen(netns, [link], arpReplies, ask, seconds + 5);
  return seen[link]!.filter((line) => line.endsWith(` ${target}`)).map((line) => line.split(' ')[0]!);
}

/** What a port on a node's bridge takes: the node's command runner (uplink-helpers.ts onNode, bound to the node). */
type OnNode = (...argv: string[]) => Promise<string>;

/**
 * What a gateway router does while its network moves between bridges: `bridge` learns `mac` on a
 * port that then goes (ofproto-dpif.c `bundle_destroy` expires that MAC in every bridge of the
 * node, static entries included). A scratch veth port of `bridge` in `netns` gets one broadcast
 * frame of a local experimental ethertype (0x88b5) from `mac`; `learnt` waits until the node has
 * switched it; the port is deleted, and the veth pair removed whatever happens.
 */
export async function learnOnPortThatGoes(
  on: OnNode,
  netns: string,
  bridge: string,
  mac: string,
  learnt: () => Promise<void>,
): Promise<void> {
  const [port, peer] = [`lp${process.pid % 100000}a`, `lp${process.pid % 100000}b`];
  execFileSync('ip', ['-n', netns, 'link', 'add', port, 'up', 'type', 'veth', 'peer', 'name', peer]);
  execFileSync('ip', ['-n', netns, 'link', 'set', peer, 'up']);
  try {
    await on('ovs-vsctl', 'add-port', bridge, port);
    sendFrame(netns, peer, 'ff'.repeat(6) + hexOfMac(mac) + '88b5' + '00'.repeat(46));
    await learnt();
    await on('ovs-vsctl', 'del-port', bridge, port);
  } finally {
    execFileSync('ip', ['-n', netns, 'link', 'del', port]);
  }
}
