/**
 * The per-node overlay of a guest: its PID 1 script (modules, addresses, an Open_vSwitch
 * ovsdb-server and ovs-vswitchd, sshd), an sshd drop-in (key-only root login, the
 * node's own host key), that host key (generated here so the lab can pin it), and the lab's client
 * key as authorized_keys. Packed as a second newc cpio and appended to the base: the kernel unpacks
 * concatenated archives in order, so the overlay's files win.
 */
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { exec } from '../exec';
import { fingerprintOfPublicKeyFile, generateKey } from '../sshd';
import { GUEST_MODULES } from './image';

/** Marks sshd started on the guest console (the console file is the boot log). */
export const SSHD_UP_MARK = 'GUEST-SSHD-UP';

/** PID 1: no systemd in the guest; the root is the unpacked initramfs (a writable tmpfs). */
export function initScript(): string {
  return `#!/bin/sh
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm; mount -t devpts devpts /dev/pts; mount -t tmpfs tmpfs /run
for m in ${GUEST_MODULES.join(' ')}; do modprobe $m || echo "modprobe $m failed"; done
arg() { sed -n "s/.* $1=\\([^ ]*\\).*/\\1/p" /proc/cmdline; }
hostname "$(arg node)"
ip link set lo up; ip link set eth0 up; ip addr add 10.0.2.15/24 dev eth0; ip route add default via 10.0.2.2
IP1=$(arg ip1)
if [ -n "$IP1" ] && [ -e /sys/class/net/eth1 ]; then ip link set eth1 up; ip addr add "$IP1" dev eth1; fi
# Open vSwitch as on any node: its db, and ovs-vswitchd (kernel datapath) so bridges get
# ofports and flows
if [ -x /usr/sbin/ovsdb-server ]; then
  mkdir -p /run/openvswitch
  ovsdb-tool create /run/openvswitch/conf.db /usr/share/openvswitch/vswitch.ovsschema
  ovsdb-server /run/openvswitch/conf.db --remote=punix:/run/openvswitch/db.sock --pidfile=/run/openvswitch/ovsdb-server.pid --detach --no-chdir
  ovs-vsctl --no-wait init
  ovs-vswitchd unix:/run/openvswitch/db.sock --pidfile=/run/openvswitch/ovs-vswitchd.pid --log-file=/run/openvswitch/ovs-vswitchd.log --detach --no-chdir || echo "ovs-vswitchd failed"
fi
mkdir -p /run/sshd
/usr/sbin/sshd -e && echo "${SSHD_UP_MARK}"
while :; do sleep 3600 & wait $!; done
`;
}

const SSHD_DROP_IN = [
  'HostKey /etc/ssh/ssh_host_ed25519_key',
  'PermitRootLogin prohibit-password',
  'PasswordAuthentication no',
  'KbdInteractiveAuthentication no',
  'UsePAM no',
  'UseDNS no',
  'AllowStreamLocalForwarding yes',
  '',
].join('\n');

/** Build the node's overlay tree and cpio; returns the host key's fingerprint for pinning. */
export async function buildOverlay(
  nodeDir: string,
  clientPublicKey: string,
  nodeName: string,
): Promise<{ cpio: string; fingerprint: string }> {
  const tree = path.join(nodeDir, 'overlay');
  const sshDir = path.join(tree, 'etc', 'ssh');
  mkdirSync(path.join(sshDir, 'sshd_config.d'), { recursive: true });
  mkdirSync(path.join(tree, 'root', '.ssh'), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(tree, 'init'), initScript(), { mode: 0o755 });
  writeFileSync(path.join(sshDir, 'sshd_config.d', 'ovnk-vm.conf'), SSHD_DROP_IN);
  await generateKey(path.join(sshDir, 'ssh_host_ed25519_key'), `ovnk-vm-${nodeName}`);
  chmodSync(path.join(sshDir, 'ssh_host_ed25519_key'), 0o600);
  copyFileSync(clientPublicKey, path.join(tree, 'root', '.ssh', 'authorized_keys'));
  chmodSync(path.join(tree, 'root', '.ssh', 'authorized_keys'), 0o600);
  const cpio = path.join(nodeDir, 'overlay.cpio');
  await exec(['sh', '-c', 'cd "$1" && find . | cpio -o -H newc --quiet -R 0:0 > "$0"', cpio, tree]);
  return { cpio, fingerprint: fingerprintOfPublicKeyFile(path.join(sshDir, 'ssh_host_ed25519_key.pub')) };
}

/** The node's initrd: the base image followed by its overlay. */
export async function composeInitrd(baseCpio: string, overlayCpio: string, initrd: string): Promise<void> {
  await exec(['sh', '-c', 'cat "$1" "$2" > "$0"', initrd, baseCpio, overlayCpio], { timeoutMs: 60_000 });
}
