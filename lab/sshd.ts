/**
 * SSH of the lab: the client key (one per lab), a host key per node and its SHA-256 fingerprint,
 * each node's sshd_config (key-only, lab address only, stream-local forwarding for OVSDB over SSH),
 * and starting sshd in the node's namespace with its own hostname and its own /run (so plain
 * `ovs-vsctl` over SSH reaches that node's daemons).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { exec, inNamespace, inRoot } from './exec';
import type { LabLayout, NodeLayout } from './layout';

export async function generateKey(file: string, comment: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  await exec(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file]);
}

/** OpenSSH's `SHA256:...` fingerprint of a public key file (base64 of the blob's SHA-256, unpadded). */
export function fingerprintOfPublicKeyFile(file: string): string {
  const [, base64 = ''] = readFileSync(file, 'utf8').trim().split(/\s+/);
  const blob = Buffer.from(base64, 'base64');
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

export async function createClientKey(layout: LabLayout): Promise<void> {
  await generateKey(layout.clientKeyPath, `ovnk-lab-${layout.name}`);
  writeFileSync(layout.authorizedKeysPath, readFileSync(`${layout.clientKeyPath}.pub`));
}

export function sshdConfig(layout: LabLayout, node: NodeLayout): string {
  return [
    `ListenAddress ${node.mgmtIp}`,
    'Port 22',
    `HostKey ${node.hostKeyPath}`,
    `PidFile ${path.join(node.runDir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${layout.authorizedKeysPath}`,
    'PermitRootLogin prohibit-password',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'UsePAM no',
    'UseDNS no',
    // the lab lives under a world-writable temp directory
    'StrictModes no',
    'AllowStreamLocalForwarding yes',
    'MaxStartups 100:30:200',
    'MaxSessions 50',
    `SetEnv OVS_RUNDIR=${node.runDir} OVN_RUNDIR=${node.runDir}`,
    'Subsystem sftp /usr/lib/openssh/sftp-server',
    '',
  ].join('\n');
}

/** The node's private /run: sshd's privilege separation dir, and OVS/OVN run dirs pointing at the node's. */
export function prepareFakeRun(node: NodeLayout): void {
  mkdirSync(path.join(node.fakeRunDir, 'sshd'), { recursive: true });
  symlinkSync(node.runDir, path.join(node.fakeRunDir, 'openvswitch'));
  symlinkSync(node.runDir, path.join(node.fakeRunDir, 'ovn'));
}

/**
 * sshd in the node's namespace, in new UTS and mount namespaces: its own hostname, and the node's
 * fakerun bound on /run (of the OVN root, for trixie, where sshd then runs chrooted).
 */
export async function startSshd(layout: LabLayout, node: NodeLayout, root: string | undefined): Promise<void> {
  writeFileSync(node.sshdConfigPath, sshdConfig(layout, node));
  const script = 'hostname "$1" && mount --bind "$2" "$3/run" && shift 3 && exec "$@"';
  const sshd = inRoot(root, ['/usr/sbin/sshd', '-f', node.sshdConfigPath, '-E', path.join(node.logDir, 'sshd.log')]);
  const argv = [
    'unshare',
    '--uts',
    '--mount',
    '--propagation',
    'private',
    'sh',
    '-c',
    script,
    'sh',
    node.name,
    node.fakeRunDir,
    root ?? '',
    ...sshd,
  ];
  await exec(inNamespace(node.namespace, argv));
}
