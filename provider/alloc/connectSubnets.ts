/**
 * Upstream's HybridConnectSubnetAllocator, one per ClusterNetworkConnect:
 * - Layer3 networks (owner `layer3_<id>`) get one `/networkPrefix` slice per family from the
 *   layer3 allocator (the connect subnets split at networkPrefix; next-fit);
 * - Layer2 networks (owner `layer2_<id>`) get one /31 (/127) from the layer2 allocator, whose
 *   ranges are whole /networkPrefix blocks borrowed from the layer3 pool (oldest block first);
 *   when it has no free /31 another block is borrowed. Upstream names a block's owner
 *   `l2-block-<random>`; ours is `l2-block-<blockKey>` so plans are reproducible.
 * Releasing a Layer2 network gives its block back to the layer3 pool once the block is empty.
 */
import { type Cidr, type Family, addressBits, formatCidr, mask } from '../model/cidr';
import { failure, type Outcome, type Refusal, refusal, success } from '../model/outcome';
import { type AllocatorState, type MarkFailure, SubnetAllocator } from './subnetAllocator';

export interface ConnectSubnet {
  cidr: Cidr;
  networkPrefix: number;
}

export interface ConnectAllocatorState {
  l3: AllocatorState;
  l2: AllocatorState;
  /** blockKey (`<v4block>`, `<v6block>` or `<v4block>,<v6block>`) -> the block's owner in l3. */
  blocks: Record<string, string>;
}

/** Upstream's internal topology names (types.Layer3Topology, types.Layer2Topology): owner keys and renderers. */
export type Topology = 'layer3' | 'layer2';

export function ownerKey(topology: Topology, networkId: number): string {
  return `${topology}_${networkId}`;
}

export function ownerTopology(owner: string): Topology | undefined {
  const match = /^(layer3|layer2)_\d+$/.exec(owner);
  return match ? (match[1] as Topology) : undefined;
}

/** Why an annotation's allocation cannot be restored: a mark failure, or a family with no connect subnet. */
export type AdoptFailure = MarkFailure | Refusal<'familyNotCovered'>;

export class ConnectSubnetAllocator {
  private constructor(
    readonly l3: SubnetAllocator,
    readonly l2: SubnetAllocator,
    readonly blocks: Map<string, string>,
    /** networkPrefix per family the allocator serves. */
    readonly prefixes: Partial<Record<Family, number>>,
  ) {}

  /** Ranges only for the families the cluster runs (upstream silently ignores the others). */
  static create(subnets: ConnectSubnet[], families: Family[]): ConnectSubnetAllocator {
    const l3 = new SubnetAllocator();
    const prefixes: Partial<Record<Family, number>> = {};
    for (const s of subnets.filter((s) => families.includes(s.cidr.family))) {
      l3.addRange(s.cidr, s.networkPrefix);
      prefixes[s.cidr.family] = s.networkPrefix;
    }
    return new ConnectSubnetAllocator(l3, new SubnetAllocator(), new Map(), prefixes);
  }

  static fromState(state: ConnectAllocatorState): ConnectSubnetAllocator {
    const l3 = SubnetAllocator.fromState(state.l3);
    const prefixes: Partial<Record<Family, number>> = {};
    for (const range of l3.ranges) prefixes[range.cidr.family] = range.childPrefix;
    return new ConnectSubnetAllocator(
      l3,
      SubnetAllocator.fromState(state.l2),
      new Map(Object.entries(state.blocks)),
      prefixes,
    );
  }

  has(owner: string): boolean {
    return this.l3.has(owner) || this.l2.has(owner);
  }

  /** Owners of network allocations (not blocks). */
  owners(): string[] {
    return [
      ...Object.keys(this.l3.toState().owners).filter((o) => ownerTopology(o)),
      ...Object.keys(this.l2.toState().owners),
    ];
  }

  subnetsOf(owner: string): Cidr[] {
    return ownerTopology(owner) === 'layer2' ? this.l2.subnetsOf(owner) : this.l3.subnetsOf(owner);
  }

  /** The /networkPrefix block holding a Layer2 network's /31 (/127). */
  blockOf(subnet: Cidr): Cidr {
    const prefix = this.prefixes[subnet.family]!;
    return { family: subnet.family, base: mask(subnet.base, subnet.family, prefix), prefix };
  }

  /** Allocate for `owner`; a failure carries upstream's error text. */
  allocate(owner: string): Outcome<Cidr[]> {
    if (ownerTopology(owner) === 'layer2') return this.allocateLayer2(owner);
    const result = this.l3.allocate(owner);
    return result.ok ? result : failure(`Layer3 allocation failed for ${owner}: ${result.why}`);
  }

  release(owner: string): void {
    if (ownerTopology(owner) !== 'layer2') return this.l3.release(owner);
    this.l2.release(owner);
    const freed = this.l2.freeUnusedRanges();
    if (freed.length === 0 || freed.length > 2) return;
    const key = freed.map((r) => formatCidr(r.cidr)).join(',');
    const blockOwner = this.blocks.get(key);
    if (blockOwner !== undefined) this.l3.release(blockOwner);
    this.blocks.delete(key);
  }

  /** Restore an allocation found in upstream's annotation (cursor untouched); a failure says why not. */
  adopt(owner: string, subnets: Cidr[]): Outcome<undefined, AdoptFailure> {
    if (ownerTopology(owner) !== 'layer2') return this.l3.mark(owner, subnets);
    if (subnets.some((s) => this.prefixes[s.family] === undefined))
      return refusal('familyNotCovered', `${owner} has a subnet of a family the connect subnets do not cover`);
    const blocks = subnets.map((s) => this.blockOf(s));
    const key = blocks.map(formatCidr).join(',');
    if (!this.blocks.has(key)) {
      const marked = this.l3.mark(`l2-block-${key}`, blocks);
      if (!marked.ok) return marked;
      this.addBlock(key, blocks);
    }
    return this.l2.mark(owner, subnets);
  }

  toState(): ConnectAllocatorState {
    const blocks: Record<string, string> = {};
    for (const [key, owner] of this.blocks) blocks[key] = owner;
    return { l3: this.l3.toState(), l2: this.l2.toState(), blocks };
  }

  private allocateLayer2(owner: string): Outcome<Cidr[]> {
    if (this.l2.has(owner)) return success(this.l2.subnetsOf(owner));
    if (this.l2.ranges.length > 0) {
      const result = this.l2.allocate(owner);
      if (result.ok && result.value.length > 0) return result;
    }
    const expanded = this.expand();
    if (!expanded.ok) return failure(`failed to expand Layer2 allocator: ${expanded.why}`);
    return this.l2.allocate(owner);
  }

  /** Borrow one more block per family from the layer3 pool. */
  private expand(): Outcome<Cidr[]> {
    const pending = 'l2-block-pending';
    const allocated = this.l3.allocate(pending);
    if (!allocated.ok) return failure(`failed to allocate layer2 blocks: ${allocated.why}`);
    const blocks = allocated.value;
    this.l3.release(pending);
    const key = blocks.map(formatCidr).join(',');
    this.l3.mark(`l2-block-${key}`, blocks);
    this.addBlock(key, blocks);
    return success(blocks);
  }

  private addBlock(key: string, blocks: Cidr[]): void {
    this.blocks.set(key, `l2-block-${key}`);
    for (const block of blocks) this.l2.addRange(block, addressBits(block.family) - 1);
  }
}
