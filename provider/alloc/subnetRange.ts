/**
 * One range of upstream's node SubnetAllocator (clustermanager/node/subnet_allocator.go): a CIDR
 * split into children of one prefix length, enumerated by index exactly as upstream does, with a
 * next-fit cursor. Index -> subnet applies upstream's two quirks:
 * - IPv4 octet rotation: when the host bits are not byte-aligned and the subnet bits straddle an
 *   octet, the index is rotated left by L = 8 - hostBits % 8 within the subnet bits, so children
 *   whose bits in the shared octet are zero come first (/16 into /26: .0.0, .1.0, ..., .0.64);
 * - IPv6 zero-word skip: with 16 or more subnet bits, indices whose low 16 bits are zero are never
 *   handed out.
 * Enumeration stops at 2^24 children, as upstream's does.
 */
import { type Cidr, addressBits } from '../model/cidr';

const maxEnumeratedBits = 24;

export class SubnetRange {
  readonly hostBits: number;
  readonly subnetBits: number;
  /** Number of enumerated indices (2^subnetBits, at most 2^24). */
  readonly count: number;
  /** Next-fit cursor: the scan for a free child starts here. */
  next = 0;
  private readonly owners = new Map<number, string>();
  private readonly rotation: number;
  private readonly skipZeroWords: boolean;

  constructor(
    readonly cidr: Cidr,
    readonly childPrefix: number,
  ) {
    this.hostBits = addressBits(cidr.family) - childPrefix;
    this.subnetBits = childPrefix - cidr.prefix;
    this.count = 2 ** Math.min(this.subnetBits, maxEnumeratedBits);
    this.rotation = rotationOf(cidr.family === 4, this.hostBits, this.subnetBits);
    this.skipZeroWords = cidr.family === 6 && this.subnetBits >= 16;
  }

  get used(): number {
    return this.owners.size;
  }

  /** Indices that can ever be handed out (the zero-word skip removes some). */
  get capacity(): number {
    return this.skipZeroWords ? this.count - Math.ceil(this.count / 65536) : this.count;
  }

  isSkipped(index: number): boolean {
    return this.skipZeroWords && index % 65536 === 0;
  }

  subnetAt(index: number): Cidr {
    const slot = this.rotation > 0 ? rotateLeft(index, this.rotation, this.subnetBits) : index;
    return {
      family: this.cidr.family,
      base: this.cidr.base + (BigInt(slot) << BigInt(this.hostBits)),
      prefix: this.childPrefix,
    };
  }

  /** The index of a child subnet, or undefined when it is not one this range enumerates. */
  indexOf(subnet: Cidr): number | undefined {
    if (subnet.family !== this.cidr.family || subnet.prefix !== this.childPrefix) return undefined;
    const offset = subnet.base - this.cidr.base;
    if (offset < 0n || offset >> BigInt(this.hostBits + this.subnetBits) !== 0n) return undefined;
    const slot = Number(offset >> BigInt(this.hostBits));
    const index = this.rotation > 0 ? rotateLeft(slot, this.subnetBits - this.rotation, this.subnetBits) : slot;
    return index < this.count && !this.isSkipped(index) ? index : undefined;
  }

  ownerAt(index: number): string | undefined {
    return this.owners.get(index);
  }

  /**
   * Next-fit: the first free index from the cursor on (wrapping); the cursor moves past it. The
   * scan passes only taken or skipped indices, and a full range answers at once, so a call costs
   * at most the children already handed out, never the size of the range (up to 2^24).
   */
  allocate(owner: string): Cidr | undefined {
    if (this.owners.size >= this.capacity) {
      this.next = 0;
      return undefined;
    }
    for (let i = 0; i < this.count; i++) {
      const index = (this.next + i) % this.count;
      if (this.isSkipped(index) || this.owners.has(index)) continue;
      this.owners.set(index, owner);
      this.next = index + 1;
      return this.subnetAt(index);
    }
    this.next = 0;
    return undefined;
  }

  /** Mark a child as taken without moving the cursor (restore after restart). */
  mark(index: number, owner: string): void {
    this.owners.set(index, owner);
  }

  release(index: number): void {
    this.owners.delete(index);
  }

  /** [index, owner] pairs in index order. */
  entries(): [number, string][] {
    return [...this.owners.entries()].sort((a, b) => a[0] - b[0]);
  }
}

function rotationOf(ipv4: boolean, hostBits: number, subnetBits: number): number {
  if (!ipv4 || hostBits % 8 === 0) return 0;
  const straddles = Math.floor((hostBits - 1) / 8) !== Math.floor((hostBits + subnetBits - 1) / 8);
  return straddles ? 8 - (hostBits % 8) : 0;
}

/** Rotate `value` left by `by` bits within `width` bits (exact up to 2^53, no 32-bit ops). */
function rotateLeft(value: number, by: number, width: number): number {
  const high = 2 ** (width - by);
  return (value % high) * 2 ** by + Math.floor(value / high);
}
