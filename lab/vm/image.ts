/**
 * The QEMU guest's base image, built once into a cache outside the repository
 * ($OVNK_LAB_CACHE/vm-<version>, else /var/cache/ovnk-lab/vm-<version>): Debian's kernel (downloaded and extracted,
 * never installed) decompressed to an ELF vmlinux (TCG boots it ~3 s faster than vmlinuz), and a
 * debootstrap bookworm root with sshd, iproute2 and kmod plus only the kernel modules the guest
 * loads, packed as one uncompressed newc cpio (the fastest initramfs under TCG). A completion
 * marker makes a half-built cache rebuild; a directory lock keeps concurrent builders apart.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { failing } from '../errors';
import { exec, sleep } from '../exec';

export const KERNEL_VERSION = '6.1.0-56-amd64';
const MIRROR = 'http://deb.debian.org/debian';
/**
 * openvswitch-switch: ovsdb-server, ovs-vswitchd, ovs-vsctl, ovs-ofctl and the vswitch schema, so
 * the guest is an Open vSwitch node (with openvswitch.ko: the kernel datapath, as on a real node).
 */
const PACKAGES = 'openssh-server,iproute2,kmod,iputils-ping,openvswitch-switch';
/**
 * The image's version, in its cache directory's name: an image of another package or module list
 * is built beside the older one (a checkout of older code keeps using its own), never over it.
 */
const IMAGE_VERSION = 3;
const COMPLETE = '.ovnk-vm-complete';
/**
 * Modules the guest's init loads (VRF, VLAN and dummy for the uplink tests; virtio for its NICs;
 * openvswitch, with conntrack and NAT, for ovs-vswitchd's kernel datapath and the gateway flows).
 */
export const GUEST_MODULES = ['virtio_pci', 'virtio_net', 'vrf', '8021q', 'dummy', 'veth', 'bridge', 'openvswitch'];
/** Paths left out of the cpio: documentation, locales and perl are not needed to run sshd and ip. */
const PRUNED = [
  './var/cache/apt/archives',
  './var/lib/apt/lists',
  './usr/share/doc',
  './usr/share/man',
  './usr/share/locale',
  './usr/share/zoneinfo',
  './usr/lib/x86_64-linux-gnu/gconv',
  './usr/lib/x86_64-linux-gnu/perl-base',
  './usr/share/perl5',
  './usr/bin/perl',
  './usr/bin/perl5.36.0',
  './usr/share/info',
  // python comes with openvswitch-common; nothing the guest runs needs it
  './usr/lib/python3',
  './usr/lib/python3.11',
  './usr/share/python3',
];

export interface VmImage {
  dir: string;
  vmlinux: string;
  baseCpio: string;
  kernelVersion: string;
}

export function vmCacheDir(): string {
  return path.join(process.env.OVNK_LAB_CACHE ?? '/var/cache/ovnk-lab', `vm-${IMAGE_VERSION}`);
}

function imageOf(dir: string): VmImage {
  return {
    dir,
    vmlinux: path.join(dir, 'vmlinux'),
    baseCpio: path.join(dir, 'base.cpio'),
    kernelVersion: KERNEL_VERSION,
  };
}

/** The cached image, building it first when missing or incomplete. */
export async function ensureImage(progress?: (message: string) => void): Promise<VmImage> {
  const dir = vmCacheDir();
  if (existsSync(path.join(dir, COMPLETE))) return imageOf(dir);
  return withBuildLock(dir, async () => {
    if (!existsSync(path.join(dir, COMPLETE))) await build(dir, progress);
    return imageOf(dir);
  });
}

async function withBuildLock<T>(dir: string, body: () => Promise<T>): Promise<T> {
  const lock = `${dir}.lock`;
  mkdirSync(path.dirname(dir), { recursive: true });
  for (let waited = 0; ; waited += 500) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (waited > 15 * 60_000)
        throw failing(`the guest image build lock ${lock} is held for 15 minutes; remove it if no build runs`);
      await sleep(500);
    }
  }
  try {
    return await body();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function build(dir: string, progress?: (message: string) => void): Promise<void> {
  for (const tool of ['/usr/sbin/debootstrap', '/usr/bin/cpio', '/usr/bin/xz']) {
    if (!existsSync(tool))
      throw failing(`building the guest image needs ${path.basename(tool)}: run "npm run setup" as root`);
  }
  progress?.(`building the QEMU guest image in ${dir} (once; about a minute and 1 GB)`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await fetchKernel(dir);
  await extractVmlinux(dir);
  await bootstrapRoot(dir);
  await installModules(dir);
  await packBase(dir);
  rmSync(path.join(dir, 'root'), { recursive: true, force: true });
  rmSync(path.join(dir, 'kx'), { recursive: true, force: true });
  writeFileSync(path.join(dir, COMPLETE), new Date().toISOString());
}

async function fetchKernel(dir: string): Promise<void> {
  const pkg = `linux-image-${KERNEL_VERSION}`;
  try {
    await exec(['sh', '-c', 'cd "$1" && apt-get download "$2"', 'sh', dir, pkg], { timeoutMs: 10 * 60_000 });
  } catch (error) {
    throw failing(
      `downloading ${pkg} failed (${(error as Error).message.slice(0, 300)}); run "apt-get update" and retry`,
    );
  }
  const deb = readdirSync(dir).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
  if (!deb) throw failing(`apt-get download ${pkg} left no .deb in ${dir}`);
  await exec(['dpkg', '-x', path.join(dir, deb), path.join(dir, 'kx')], { timeoutMs: 5 * 60_000 });
  await exec(['depmod', '-b', path.join(dir, 'kx'), KERNEL_VERSION]);
  rmSync(path.join(dir, deb));
}

/** The bzImage carries an xz stream after its setup code: cut it out and decompress it. */
async function extractVmlinux(dir: string): Promise<void> {
  const image = readFileSync(path.join(dir, 'kx', 'boot', `vmlinuz-${KERNEL_VERSION}`));
  const start = image.indexOf(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]));
  if (start < 0) throw failing(`vmlinuz-${KERNEL_VERSION} holds no xz stream; the kernel format changed`);
  writeFileSync(path.join(dir, 'vmlinuz.xz'), image.subarray(start));
  // xz reports the bzImage's trailing bytes after the stream (exit 1 or 2); the ELF is complete.
  await exec(
    [
      'sh',
      '-c',
      'xz -dc "$1" > "$2" 2>/dev/null; test -s "$2"',
      'sh',
      path.join(dir, 'vmlinuz.xz'),
      path.join(dir, 'vmlinux'),
    ],
    { timeoutMs: 120_000 },
  );
  rmSync(path.join(dir, 'vmlinuz.xz'));
}

async function bootstrapRoot(dir: string): Promise<void> {
  const root = path.join(dir, 'root');
  try {
    await exec(['debootstrap', '--variant=minbase', `--include=${PACKAGES}`, 'bookworm', root, MIRROR], {
      timeoutMs: 20 * 60_000,
    });
  } catch (error) {
    throw failing(
      `debootstrap of the guest root failed (${(error as Error).message.slice(0, 300)}); check access to ${MIRROR} and retry`,
    );
  }
  // debootstrap generated host keys here; every lab generates its own, so none ship in the base.
  await exec(['sh', '-c', 'rm -f "$1"/etc/ssh/ssh_host_*', 'sh', root]);
}

/** Only the modules the guest loads (with their dependencies), indexed by depmod. */
async function installModules(dir: string): Promise<void> {
  const kx = path.join(dir, 'kx');
  const modDir = path.join(kx, 'lib', 'modules', KERNEL_VERSION);
  const files = new Set<string>();
  for (const module of GUEST_MODULES) {
    const { stdout } = await exec(['modprobe', '-d', kx, '-S', KERNEL_VERSION, '--show-depends', module]);
    for (const line of stdout.split('\n')) {
      const [verb, file] = line.trim().split(/\s+/);
      if (verb === 'insmod' && file) files.add(path.relative(modDir, file));
    }
  }
  const target = path.join(dir, 'root', 'lib', 'modules', KERNEL_VERSION);
  mkdirSync(target, { recursive: true });
  const wanted = [...files, 'modules.order', 'modules.builtin', 'modules.builtin.modinfo'];
  await exec(['sh', '-c', 'cd "$1" && shift 2 && cp --parents "$@" "$0"', target, modDir, '-', ...wanted]);
  await exec(['depmod', '-b', path.join(dir, 'root'), KERNEL_VERSION]);
}

async function packBase(dir: string): Promise<void> {
  const prune = PRUNED.flatMap((p, i) => (i === 0 ? ['-path', p] : ['-o', '-path', p]));
  const script = 'cd "$1" && shift 2 && find . \\( "$@" \\) -prune -o -print | cpio -o -H newc --quiet > "$0"';
  await exec(['sh', '-c', script, path.join(dir, 'base.cpio'), path.join(dir, 'root'), '-', ...prune], {
    timeoutMs: 5 * 60_000,
  });
}
