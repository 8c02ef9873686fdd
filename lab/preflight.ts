/**
 * What the lab needs before it starts: root privileges and the Debian packages whose programs it
 * runs. Each failure is one sentence that says what to install or how to run.
 */
import { accessSync, constants } from 'node:fs';
import { LabError } from './errors';

/** Program -> the Debian package that ships it. */
const REQUIRED: Record<string, string> = {
  '/usr/sbin/ovsdb-server': 'openvswitch-switch',
  '/usr/sbin/ovs-vswitchd': 'openvswitch-switch',
  '/usr/bin/ovs-vsctl': 'openvswitch-switch',
  '/usr/bin/ovsdb-tool': 'openvswitch-common',
  '/usr/bin/ovn-northd': 'ovn-central',
  '/usr/bin/ovn-nbctl': 'ovn-common',
  '/usr/bin/ovn-controller': 'ovn-host',
  '/usr/sbin/sshd': 'openssh-server',
  '/usr/bin/ssh-keygen': 'openssh-client',
  '/usr/bin/unshare': 'util-linux',
  '/usr/sbin/ethtool': 'ethtool',
  '/usr/sbin/sysctl': 'procps',
  '/usr/bin/ping': 'iputils-ping',
  '/bin/nc': 'netcat-openbsd',
};
const IP_COMMANDS = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function missingPackages(extra: Record<string, string> = {}): string[] {
  const programs = { ...REQUIRED, ...extra };
  const missing = new Set(
    Object.entries(programs)
      .filter(([file]) => !executable(file))
      .map(([, pkg]) => pkg),
  );
  if (!IP_COMMANDS.some(executable)) missing.add('iproute2');
  return [...missing].sort();
}

export function checkPrerequisites(extra: Record<string, string> = {}): void {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new LabError(
      'refused',
      'the lab needs root (it creates network namespaces and starts OVS daemons): run "sudo npm run setup" once, then run ovnk lab as root',
    );
  }
  const missing = missingPackages(extra);
  if (missing.length > 0) {
    throw new LabError(
      'failing',
      `the lab needs Debian packages that are not installed (${missing.join(', ')}): run "npm run setup" as root, or "apt-get install -y ${missing.join(' ')}"`,
    );
  }
}
