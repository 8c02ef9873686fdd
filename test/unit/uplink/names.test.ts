import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fnv1a64, hashForOvn, physicalNetworkOf, uplinkStateName } from '../../../provider/uplink';

describe('UplinkState names', () => {
  it('FNV-1a-64 matches the published test vectors', () => {
    expect(fnv1a64('')).toBe('14695981039346656037');
    expect(fnv1a64('a')).toBe(BigInt('0xaf63dc4c8601ec8c').toString());
    expect(fnv1a64('foobar')).toBe(BigInt('0x85944171f73967e8').toString());
  });

  it('a state name is "<uplink>.<node>" up to 253 characters', () => {
    expect(uplinkStateName('blue', 'ovn-worker2')).toBe('blue.ovn-worker2');
    const node = 'n'.repeat(253 - 'blue.'.length);
    expect(uplinkStateName('blue', node)).toBe(`blue.${node}`);
  });

  it('a longer state name is uplinkstate- plus the hash of "<uplink>.<node>"', () => {
    const node = 'n'.repeat(254 - 'blue.'.length);
    expect(uplinkStateName('blue', node)).toBe(`uplinkstate-${hashForOvn(`blue.${node}`)}`);
    expect(uplinkStateName('blue', node)).toMatch(/^uplinkstate-a\d{1,20}$/);
  });

  it('hashed names stay within 33 characters and differ for different pairs', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 253, maxLength: 300 }), fc.string({ minLength: 1, maxLength: 10 }), (u, n) => {
        const name = uplinkStateName(u, n);
        expect(name.length).toBeLessThanOrEqual(33);
        expect(uplinkStateName(u, `${n}x`)).not.toBe(name);
      }),
    );
  });

  it('the physical network of CUDN blue is cluster_udn_blue', () => {
    expect(physicalNetworkOf('blue')).toBe('cluster_udn_blue');
  });
});
