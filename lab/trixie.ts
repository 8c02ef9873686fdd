/**
 * The trixie OVN (25.03 / OVS 3.5): a Debian root made once with debootstrap into a cache outside
 * the repository ($OVNK_LAB_CACHE, else /var/cache/ovnk-lab), with /dev, /proc and /sys bound into
 * it and the labs' directory bound at the same path, so every socket, pid and log path is the same
 * inside and outside the chroot. Mounts are always detached (umount -l) before anything under the
 * root is deleted: deleting a root with /dev bound into it would delete the host's device nodes.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { failing } from './errors';
import { exec, sleep } from './exec';
import type { OvnFlavor } from './layout';
import { labsRoot, listLabNames, readState } from './state';

const PACKAGES = 'ovn-central,ovn-host,openvswitch-switch,iproute2,iputils-ping,ethtool,netcat-openbsd,openssh-server';
const MIRROR = 'http://deb.debian.org/debian';
const COMPLETE = '.ovnk-root-complete';

export function trixieRoot(): string {
  return path.join(process.env.OVNK_LAB_CACHE ?? '/var/cache/ovnk-lab', 'trixie-root');
}

/** Mount points at or under `dir`, deepest first (so nested mounts come off before their parents). */
export function mountsUnder(dir: string): string[] {
  const unescape = (p: string) =>
    p.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => unescape(line.split(' ')[4] ?? ''))
    .filter((mount) => mount === dir || mount.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
}

async function unmountAll(root: string): Promise<void> {
  for (const mount of [...new Set(mountsUnder(root))]) await exec(['umount', '-l', mount], { okCodes: [32] });
}

async function bindOnce(source: string, root: string): Promise<void> {
  const target = path.join(root, source);
  if (mountsUnder(target).includes(target)) return;
  mkdirSync(target, { recursive: true });
  await exec(['mount', '--bind', source, target]);
}

async function debootstrap(root: string, progress?: (message: string) => void): Promise<void> {
  if (!existsSync('/usr/sbin/debootstrap'))
    throw failing('the trixie OVN needs debootstrap: run "npm run setup" as root, or "apt-get install -y debootstrap"');
  if (existsSync(root)) {
    await unmountAll(root);
    rmSync(root, { recursive: true, force: true });
  }
  progress?.(`building the trixie root in ${root} (once; about a minute and 360 MB)`);
  mkdirSync(path.dirname(root), { recursive: true });
  try {
    await exec(['debootstrap', '--variant=minbase', `--include=${PACKAGES}`, 'trixie', root, MIRROR], {
      timeoutMs: 20 * 60_000,
    });
  } catch (error) {
    await unmountAll(root);
    throw failing(
      `building the trixie root failed (${(error as Error).message.slice(0, 400)}); check network access to ${MIRROR} and retry`,
    );
  }
  writeFileSync(path.join(root, COMPLETE), new Date().toISOString());
}

/** Build the root once (one builder at a time; others wait for it). */
async function ensureRoot(root: string, progress?: (message: string) => void): Promise<void> {
  if (existsSync(path.join(root, COMPLETE))) return;
  const lock = `${root}.lock`;
  mkdirSync(path.dirname(root), { recursive: true });
  for (const deadline = Date.now() + 30 * 60_000; ; await sleep(500)) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(path.join(root, COMPLETE))) return;
      if (Date.now() > deadline)
        throw failing(`another process has been building ${root} for 30 minutes; remove ${lock} if none runs`);
    }
  }
  try {
    if (!existsSync(path.join(root, COMPLETE))) await debootstrap(root, progress);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The root the lab's daemons run from (built once): undefined for the host's OVN (bookworm). */
export async function prepareOvnRoot(
  ovn: OvnFlavor,
  progress?: (message: string) => void,
): Promise<string | undefined> {
  if (ovn === 'bookworm') return undefined;
  const root = trixieRoot();
  await ensureRoot(root, progress);
  return root;
}

/** Mounting and releasing run one at a time, so a lab going down never detaches what another just mounted. */
async function withMountLock<T>(root: string, body: () => Promise<T>): Promise<T> {
  const lock = `${root}.mountlock`;
  for (let tries = 0; ; tries++) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (tries > 500) throw failing(`${lock} has been held for 10 s; remove it if no ovnk lab command runs`);
      await sleep(20);
    }
  }
  try {
    return await body();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Bind /dev, /proc, /sys and the labs' directory into the root (call after the state records the root). */
export async function mountOvnRoot(root: string): Promise<void> {
  mkdirSync(labsRoot(), { recursive: true });
  await withMountLock(root, async () => {
    for (const source of ['/dev', '/proc', '/sys', labsRoot()]) await bindOnce(source, root);
  });
}

/** Detach every mount under the root unless another lab still uses it; the root itself stays cached. */
export async function releaseOvnRoot(root: string, self: string): Promise<void> {
  await withMountLock(root, async () => {
    const others = listLabNames().some((name) => name !== self && readState(name)?.ovnRoot === root);
    if (!others) await unmountAll(root);
  });
}
