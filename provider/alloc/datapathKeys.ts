/**
 * Datapath tunnel keys from upstream's cluster-wide TunnelKeysAllocator: the dynamic range
 * 16715779 (= 16711683 + 4096) .. 16777215, handed out round-robin (the scan starts after the
 * last key handed out, so released keys are not reused until the range wraps). Layer3 transit
 * switches and Layer2 switches use the fixed key 16711683 + network id instead.
 */
import { dict } from '../model/dict';
import { type Outcome, type Refusal, refusal, success } from '../model/outcome';

export const baseTransitSwitchTunnelKey = 16711683;
export const dynamicKeyStart = baseTransitSwitchTunnelKey + 4096;
export const maxDatapathKey = 2 ** 24 - 1;

export interface KeyState {
  /** Where the next round-robin scan starts. */
  next: number;
  /** Owner (`transit-router/<network>` or `connect-router/<cnc>`) -> key. */
  keys: Record<string, number>;
}

/**
 * Why a known key cannot be reserved: outside the dynamic range, handed to another owner of this
 * plan (`taken`), or held by another owner of the same Northbound (`otherOwner`, alloc/others.ts).
 */
export type ReserveFailure =
  Refusal<'outOfRange'> | (Refusal<'taken'> & { holder: string }) | (Refusal<'otherOwner'> & { holder: string });

export function transitSwitchKey(networkId: number): number {
  return baseTransitSwitchTunnelKey + networkId;
}

export class TunnelKeyAllocator {
  private readonly byKey = new Map<number, string>();
  private readonly byOwner = new Map<string, number>();
  private next: number;

  /**
   * @param others keys other owners of the Northbound hold (alloc/others.ts), with who holds
   * each: never handed out; a previous key among them is dropped, so it is allocated afresh.
   */
  constructor(
    previous?: KeyState,
    private readonly others: ReadonlyMap<number, string> = new Map(),
  ) {
    this.next = previous?.next ?? dynamicKeyStart;
    for (const [owner, key] of Object.entries(previous?.keys ?? {})) if (!others.has(key)) this.reserve(owner, key);
  }

  keyOf(owner: string): number | undefined {
    return this.byOwner.get(owner);
  }

  /** Reserve a known key (adoption); a failure says why not. Does not move the cursor. */
  reserve(owner: string, key: number): Outcome<number, ReserveFailure> {
    if (!Number.isInteger(key) || key < dynamicKeyStart || key > maxDatapathKey)
      return refusal('outOfRange', `tunnel key ${key} is outside ${dynamicKeyStart}..${maxDatapathKey}`);
    const holder = this.byKey.get(key);
    if (holder !== undefined && holder !== owner)
      return refusal('taken', `tunnel key ${key} is already used by ${holder}`, { holder });
    const other = this.others.get(key);
    if (other !== undefined)
      return refusal('otherOwner', `tunnel key ${key} is held by ${other} in this Northbound`, { holder: other });
    this.release(owner);
    this.byKey.set(key, owner);
    this.byOwner.set(owner, key);
    return success(key);
  }

  /** The owner's key, allocating one round-robin when it has none; undefined when all are taken. */
  allocate(owner: string): number | undefined {
    const known = this.byOwner.get(owner);
    if (known !== undefined) return known;
    const size = maxDatapathKey - dynamicKeyStart + 1;
    for (let i = 0; i < size; i++) {
      const key = dynamicKeyStart + ((this.next - dynamicKeyStart + i) % size);
      if (this.byKey.has(key) || this.others.has(key)) continue;
      this.byKey.set(key, owner);
      this.byOwner.set(owner, key);
      this.next = key + 1 > maxDatapathKey ? dynamicKeyStart : key + 1;
      return key;
    }
    return undefined;
  }

  release(owner: string): void {
    const key = this.byOwner.get(owner);
    if (key === undefined) return;
    this.byKey.delete(key);
    this.byOwner.delete(owner);
  }

  owners(): string[] {
    return [...this.byOwner.keys()];
  }

  toState(): KeyState {
    const keys = dict<number>();
    for (const owner of [...this.byOwner.keys()].sort()) keys[owner] = this.byOwner.get(owner)!;
    return { next: this.next, keys };
  }
}
