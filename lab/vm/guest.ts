/**
 * One QEMU (TCG) guest: boot it from the cached vmlinux and its node initrd with user networking
 * (SSH forwarded from a loopback port) and an optional tap NIC on the data segment, wait until
 * its sshd answers with the pinned host key through the same SshHostRunner every node uses, and
 * stop it by its recorded pid (only while that pid still runs qemu).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { SshHostRunner, type SshTarget } from '../../provider/host';
import { failing } from '../errors';
import { sleep } from '../exec';
import { isRunning } from '../processes';

export const QEMU = 'qemu-system-x86_64';

export interface GuestBoot {
  name: string;
  vmlinux: string;
  initrd: string;
  sshPort: number;
  console: string;
  pidFile: string;
  /** Tap device on the data segment and the guest's eth1 address (ADDR/PLEN), when the lab has one. */
  data?: { tap: string; mac: string; address: string };
}

/** A free TCP port on loopback (released at once; qemu binds it next). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export function qemuArgv(boot: GuestBoot): string[] {
  const append = [
    'console=ttyS0',
    'panic=-1',
    'quiet',
    `node=${boot.name}`,
    ...(boot.data ? [`ip1=${boot.data.address}`] : []),
  ];
  const data = boot.data
    ? [
        '-netdev',
        `tap,id=d0,ifname=${boot.data.tap},script=no,downscript=no`,
        '-device',
        `virtio-net-pci,netdev=d0,romfile=,mac=${boot.data.mac}`,
      ]
    : [];
  return [
    QEMU,
    '-accel',
    'tcg,thread=multi',
    '-cpu',
    'max',
    '-m',
    '1024',
    '-smp',
    '2',
    '-nographic',
    '-no-reboot',
    '-kernel',
    boot.vmlinux,
    '-initrd',
    boot.initrd,
    '-append',
    append.join(' '),
    '-netdev',
    `user,id=mgmt,hostfwd=tcp:127.0.0.1:${boot.sshPort}-:22`,
    '-device',
    'virtio-net-pci,netdev=mgmt,romfile=',
    ...data,
  ];
}

/** Start qemu detached from our stdio (it outlives `ovnk lab vm up`); its console goes to a file. */
export function startGuest(boot: GuestBoot): number {
  const out = openSync(boot.console, 'a');
  try {
    const argv = qemuArgv(boot);
    const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ['ignore', out, out] });
    if (child.pid === undefined)
      throw failing(`${QEMU} did not start for ${boot.name}: is qemu-system-x86 installed ("npm run setup")?`);
    child.on('error', () => undefined);
    child.unref();
    writeFileSync(boot.pidFile, `${child.pid}\n`);
    return child.pid;
  } finally {
    closeSync(out);
  }
}

/**
 * True once something on host:port sends an SSH identification line. Before the guest's sshd runs,
 * slirp accepts the connection and closes it, so only the banner says sshd is there.
 */
export function sshBanner(host: string, port: number, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('data', (chunk) => done(chunk.toString('latin1').startsWith('SSH-')));
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}

/** Poll for sshd's banner, then until `ssh true` succeeds with the pinned key; a qemu that exited ends the wait. */
export async function waitForSsh(target: SshTarget, pid: number, timeoutMs: number, console: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (!isRunning(pid))
      throw failing(`the guest (qemu pid ${pid}) exited during boot; see its console log ${console}`);
    if (!(await sshBanner(target.host, target.port ?? 22))) {
      await sleep(250);
      continue;
    }
    const runner = new SshHostRunner({ ...target, connectTimeoutMs: 3000, commandTimeoutMs: 5000 });
    try {
      const result = await runner.run(['true']);
      if (result.exitCode === 0) return;
    } catch (error) {
      last = (error as Error).message;
    } finally {
      await runner.close();
    }
    await sleep(250);
  }
  throw failing(
    `the guest at ${target.host}:${target.port} did not answer SSH within ${timeoutMs / 1000} s (last: ${last}); see ${console}`,
  );
}
