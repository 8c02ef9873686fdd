/**
 * The trixie OVN (25.03 / OVS 3.5): a Debian root made once with debootstrap into a cache outside
 * the repository, with /dev, /proc and /sys bound into it and the labs' directory bound at the
 * same path, so every socket, pid and log path is the same inside and outside the chroot.
 */
import type { OvnFlavor } from './layout';

export async function prepareOvnRoot(ovn: OvnFlavor, _progress?: (message: string) => void): Promise<string | undefined> {
  if (ovn === 'bookworm') return undefined;
  throw new Error('the trixie OVN is not ready yet');
}

export async function releaseOvnRoot(_root: string): Promise<void> {}
