/**
 * Upstream's multi-range SubnetAllocator: IPv4 and IPv6 ranges in insertion order, each with its
 * own next-fit cursor. `allocate(owner)` takes one IPv4 child (from the first IPv4 range with a
 * free one) then one IPv6 child; it is idempotent per owner, and if IPv6 fails the IPv4 just taken
 * is given back. The whole allocator round-trips through plain JSON (`AllocatorState`), cursors
 * included, which is what keeps plans stable.
 */
import { type Cidr, type Family, formatCidr, mustParseCidr } from '../model/cidr';
import { dict } from '../model/dict';
import { failure, type Outcome, type Refusal, refusal, success } from '../model/outcome';
import { SubnetRange } from './subnetRange';

export const subnetsFull = 'no subnets available';

/** Why existing children cannot be marked for an owner: outside every range, or held by another. */
export type MarkFailure = Refusal<'outsideRanges'> | (Refusal<'taken'> & { holder: string });

export interface RangeState {
  cidr: string;
  prefix: number;
  next: number;
}

export interface AllocatorState {
  ranges: RangeState[];
  /** Owner -> the children it holds, IPv4 first. */
  owners: Record<string, string[]>;
}

interface Slot {
  range: SubnetRange;
  index: number;
}

export class SubnetAllocator {
  readonly ranges: SubnetRange[] = [];
  private readonly slots = new Map<string, Slot[]>();

  static fromState(state: AllocatorState): SubnetAllocator {
    const allocator = new SubnetAllocator();
    for (const r of state.ranges) allocator.addRange(mustParseCidr(r.cidr), r.prefix).next = r.next;
    for (const [owner, subnets] of Object.entries(state.owners)) {
      const marked = allocator.mark(owner, subnets.map(mustParseCidr));
      if (!marked.ok) throw new Error(`internal: allocator state does not restore: ${marked.why}`);
    }
    return allocator;
  }

  addRange(cidr: Cidr, childPrefix: number): SubnetRange {
    const range = new SubnetRange(cidr, childPrefix);
    this.ranges.push(range);
    return range;
  }

  has(owner: string): boolean {
    return this.slots.has(owner);
  }

  rangesOf(family: Family): SubnetRange[] {
    return this.ranges.filter((r) => r.cidr.family === family);
  }

  /** The owner's children, IPv4 first. */
  subnetsOf(owner: string): Cidr[] {
    return (this.slots.get(owner) ?? []).map((s) => s.range.subnetAt(s.index)).sort((a, b) => a.family - b.family);
  }

  /** One child per family the allocator has ranges for, or a failure when one ran out. */
  allocate(owner: string): Outcome<Cidr[]> {
    if (this.slots.has(owner)) return success(this.subnetsOf(owner));
    const taken: Slot[] = [];
    for (const family of [4, 6] as const) {
      const ranges = this.rangesOf(family);
      if (ranges.length === 0) continue;
      const slot = takeFirst(ranges, owner);
      if (!slot) {
        for (const s of taken) s.range.release(s.index);
        return failure(subnetsFull);
      }
      taken.push(slot);
    }
    if (taken.length > 0) this.slots.set(owner, taken);
    return success(this.subnetsOf(owner));
  }

  /** Mark existing children for an owner, all or nothing; a failure says which subnet and why not. */
  mark(owner: string, subnets: Cidr[]): Outcome<undefined, MarkFailure> {
    const found: Slot[] = [];
    for (const subnet of subnets) {
      const slot = this.locate(subnet);
      const network = `network ${formatCidr(subnet)}`;
      if (!slot) return refusal('outsideRanges', `${network} does not belong to any known range`);
      const holder = slot.range.ownerAt(slot.index);
      if (holder !== undefined && holder !== owner)
        return refusal('taken', `${network} already owned by ${holder}`, { holder });
      found.push(slot);
    }
    for (const slot of found) slot.range.mark(slot.index, owner);
    const known = this.slots.get(owner) ?? [];
    const fresh = found.filter((f) => !known.some((k) => k.range === f.range && k.index === f.index));
    if (known.length + fresh.length > 0) this.slots.set(owner, [...known, ...fresh]);
    return success(undefined);
  }

  release(owner: string): void {
    for (const slot of this.slots.get(owner) ?? []) slot.range.release(slot.index);
    this.slots.delete(owner);
  }

  /** Remove every range nobody uses (IPv4 first, then IPv6) and return them. */
  freeUnusedRanges(): SubnetRange[] {
    const unused = [...this.rangesOf(4), ...this.rangesOf(6)].filter((r) => r.used === 0);
    for (const range of unused) this.ranges.splice(this.ranges.indexOf(range), 1);
    return unused;
  }

  toState(): AllocatorState {
    const owners = dict<string[]>();
    for (const owner of [...this.slots.keys()].sort()) owners[owner] = this.subnetsOf(owner).map(formatCidr);
    return {
      ranges: this.ranges.map((r) => ({ cidr: formatCidr(r.cidr), prefix: r.childPrefix, next: r.next })),
      owners,
    };
  }

  private locate(subnet: Cidr): Slot | undefined {
    for (const range of this.ranges) {
      const index = range.indexOf(subnet);
      if (index !== undefined) return { range, index };
    }
    return undefined;
  }
}

function takeFirst(ranges: SubnetRange[], owner: string): Slot | undefined {
  for (const range of ranges) {
    if (range.allocate(owner)) return { range, index: range.next - 1 };
  }
  return undefined;
}
