import { describe, expect, it } from 'vitest';
import { SubnetRange } from '../../../provider/alloc/subnetRange';
import { formatCidr, mustParseCidr } from '../../../provider/model/cidr';

const range = (cidr: string, prefix: number) => new SubnetRange(mustParseCidr(cidr), prefix);
const first = (r: SubnetRange, n: number) => Array.from({ length: n }, (_, i) => formatCidr(r.subnetAt(i)));

describe('upstream slot enumeration', () => {
  it('hands out byte-aligned children in plain order', () => {
    expect(first(range('192.168.0.0/16', 24), 3)).toEqual(['192.168.0.0/24', '192.168.1.0/24', '192.168.2.0/24']);
  });

  it('rotates IPv4 octets so /16 into /26 gives every .0 child before any .64 child', () => {
    const r = range('192.168.0.0/16', 26);
    expect(first(r, 2)).toEqual(['192.168.0.0/26', '192.168.1.0/26']);
    expect(formatCidr(r.subnetAt(255))).toBe('192.168.255.0/26');
    expect(formatCidr(r.subnetAt(256))).toBe('192.168.0.64/26');
    expect(formatCidr(r.subnetAt(257))).toBe('192.168.1.64/26');
  });

  it('gives the well-known default-network order for 10.128.0.0/14 into /23', () => {
    expect(first(range('10.128.0.0/14', 23), 5)).toEqual([
      '10.128.0.0/23',
      '10.129.0.0/23',
      '10.130.0.0/23',
      '10.131.0.0/23',
      '10.128.2.0/23',
    ]);
  });

  it('does not rotate when the subnet bits stay inside one octet', () => {
    expect(first(range('10.0.0.0/24', 26), 4)).toEqual([
      '10.0.0.0/26',
      '10.0.0.64/26',
      '10.0.0.128/26',
      '10.0.0.192/26',
    ]);
  });

  it('skips IPv6 indices whose low 16 bits are zero when there are 16 or more subnet bits', () => {
    const r = range('fd00::/48', 64);
    expect(r.isSkipped(0)).toBe(true);
    expect(r.isSkipped(65536)).toBe(true);
    expect(formatCidr(r.allocate('a')!)).toBe('fd00:0:0:1::/64');
  });

  it('does not skip IPv6 index 0 with fewer than 16 subnet bits', () => {
    expect(formatCidr(range('fd01::/112', 120).allocate('a')!)).toBe('fd01::/120');
  });

  it('maps every enumerated child back to its index', () => {
    for (const r of [
      range('192.168.0.0/16', 26),
      range('10.128.0.0/14', 23),
      range('fd00::/48', 64),
      range('10.0.0.0/8', 31),
    ]) {
      for (const index of [1, 2, 255, 256, 1000, 4095]) {
        if (index < r.count && !r.isSkipped(index)) expect(r.indexOf(r.subnetAt(index))).toBe(index);
      }
    }
  });

  it('refuses a subnet of another prefix or outside the range', () => {
    const r = range('192.168.0.0/16', 24);
    expect(r.indexOf(mustParseCidr('192.168.0.0/25'))).toBeUndefined();
    expect(r.indexOf(mustParseCidr('192.169.0.0/24'))).toBeUndefined();
  });
});

describe('next-fit allocation', () => {
  it('does not reuse a released child until the cursor wraps', () => {
    const r = range('10.0.0.0/30', 31);
    expect(formatCidr(r.allocate('a')!)).toBe('10.0.0.0/31');
    r.release(0);
    expect(formatCidr(r.allocate('b')!)).toBe('10.0.0.2/31');
    expect(formatCidr(r.allocate('c')!)).toBe('10.0.0.0/31');
    expect(r.allocate('d')).toBeUndefined();
    expect(r.next).toBe(0);
  });
});
