import { describe, expect, it } from 'vitest';
import { ConnectSubnetAllocator } from '../../../provider/alloc/connectSubnets';
import { layer2PortKey, layer3PortKey, p2pPair } from '../../../provider/alloc/p2p';
import { checkPorts } from '../../../provider/alloc/portChecks';
import { type Cidr, formatCidr, mustParseCidr } from '../../../provider/model/cidr';
import { failure, type Outcome } from '../../../provider/model/outcome';

const v4 = (cidr: string, networkPrefix: number) => ({ cidr: mustParseCidr(cidr), networkPrefix });
const show = (r: Outcome<Cidr[]>) => (r.ok ? r.value.map(formatCidr) : r.why);

describe('hybrid connect-subnet allocator', () => {
  it('gives Layer3 networks /networkPrefix slices and Layer2 networks /31s from a borrowed block, interleaved', () => {
    const a = ConnectSubnetAllocator.create([v4('192.168.0.0/16', 24)], [4]);
    expect(show(a.allocate('layer3_1'))).toEqual(['192.168.0.0/24']);
    expect(show(a.allocate('layer2_2'))).toEqual(['192.168.1.0/31']);
    expect(show(a.allocate('layer2_3'))).toEqual(['192.168.1.2/31']);
    expect(show(a.allocate('layer3_4'))).toEqual(['192.168.2.0/24']);
  });

  it('is idempotent per owner', () => {
    const a = ConnectSubnetAllocator.create([v4('192.168.0.0/16', 24)], [4]);
    a.allocate('layer3_1');
    expect(show(a.allocate('layer3_1'))).toEqual(['192.168.0.0/24']);
  });

  it('hands a released slice to nobody until the cursor wraps (next-fit)', () => {
    const a = ConnectSubnetAllocator.create([v4('10.0.0.0/22', 24)], [4]);
    a.allocate('layer3_1');
    a.release('layer3_1');
    expect(show(a.allocate('layer3_2'))).toEqual(['10.0.1.0/24']);
  });

  it('gives an emptied Layer2 block back to the Layer3 pool', () => {
    const a = ConnectSubnetAllocator.create([v4('10.0.0.0/23', 24)], [4]);
    a.allocate('layer2_1');
    a.allocate('layer3_2');
    expect(show(a.allocate('layer3_3'))).toBe('Layer3 allocation failed for layer3_3: no subnets available');
    a.release('layer2_1');
    expect(a.toState().blocks).toEqual({});
    expect(show(a.allocate('layer3_3'))).toEqual(['10.0.0.0/24']);
  });

  it('reuses a freed /31 of an earlier block before the free ones of a later block (Layer2CanReuseFromEarlierRange)', () => {
    const a = ConnectSubnetAllocator.create([v4('10.0.0.0/16', 30)], [4]);
    a.allocate('layer2_1');
    a.allocate('layer2_2');
    a.allocate('layer2_3');
    expect(a.subnetsOf('layer2_3').map(formatCidr)).toEqual(['10.0.1.0/31']);
    a.release('layer2_1');
    expect(show(a.allocate('layer2_4'))).toEqual(['10.0.0.0/31']);
    expect(show(a.allocate('layer2_5'))).toEqual(['10.0.1.2/31']);
  });

  it("reports upstream's text when no block can be borrowed", () => {
    const a = ConnectSubnetAllocator.create([v4('10.0.0.0/24', 25)], [4]);
    a.allocate('layer3_1');
    a.allocate('layer3_2');
    expect(a.allocate('layer2_3')).toEqual(
      failure('failed to expand Layer2 allocator: failed to allocate layer2 blocks: no subnets available'),
    );
  });

  it('takes v4 and v6 blocks together in dual-stack and round-trips through its state', () => {
    const a = ConnectSubnetAllocator.create(
      [v4('192.168.0.0/16', 24), { cidr: mustParseCidr('fd01::/112'), networkPrefix: 120 }],
      [4, 6],
    );
    a.allocate('layer3_1');
    expect(show(a.allocate('layer2_2'))).toEqual(['192.168.1.0/31', 'fd01::100/127']);
    const b = ConnectSubnetAllocator.fromState(JSON.parse(JSON.stringify(a.toState())));
    expect(show(b.allocate('layer2_3'))).toEqual(['192.168.1.2/31', 'fd01::102/127']);
    expect(b.toState().blocks).toEqual({ '192.168.1.0/24,fd01::100/120': 'l2-block-192.168.1.0/24,fd01::100/120' });
  });

  it('adopts an annotation with the cursor at 0, so new networks take the lowest free slice', () => {
    const a = ConnectSubnetAllocator.create([v4('192.168.0.0/16', 24)], [4]);
    expect(a.adopt('layer3_5', [mustParseCidr('192.168.3.0/24')]).ok).toBe(true);
    expect(a.adopt('layer2_6', [mustParseCidr('192.168.7.4/31')]).ok).toBe(true);
    expect(show(a.allocate('layer3_7'))).toEqual(['192.168.0.0/24']);
    expect(show(a.allocate('layer2_8'))).toEqual(['192.168.7.0/31']);
    const taken = a.adopt('layer3_9', [mustParseCidr('192.168.3.0/24')]);
    expect(!taken.ok && taken.why).toBe('network 192.168.3.0/24 already owned by layer3_5');
  });

  it('says why an adoption is refused by a reason, not only in words: taken (by whom), outside, or a family not covered', () => {
    const a = ConnectSubnetAllocator.create([v4('192.168.0.0/16', 24)], [4]);
    a.adopt('layer3_5', [mustParseCidr('192.168.3.0/24')]);
    expect(a.adopt('layer3_9', [mustParseCidr('192.168.3.0/24')])).toEqual({
      ok: false,
      reason: 'taken',
      holder: 'layer3_5',
      why: 'network 192.168.3.0/24 already owned by layer3_5',
    });
    expect(a.adopt('layer3_10', [mustParseCidr('10.0.0.0/24')])).toEqual({
      ok: false,
      reason: 'outsideRanges',
      why: 'network 10.0.0.0/24 does not belong to any known range',
    });
    expect(a.adopt('layer2_11', [mustParseCidr('fd01::/127')])).toEqual({
      ok: false,
      reason: 'familyNotCovered',
      why: 'layer2_11 has a subnet of a family the connect subnets do not cover',
    });
    expect(a.has('layer3_9') || a.has('layer3_10') || a.has('layer2_11')).toBe(false);
  });
});

describe('point-to-point pairs and port keys', () => {
  const connect = v4('192.168.0.0/16', 24);
  it('puts node id N at offset 2N of the slice, connect-router side first', () => {
    const pair = p2pPair(mustParseCidr('192.168.0.0/24'), 4);
    expect(pair.ok && [formatCidr(pair.value.first), formatCidr(pair.value.second)]).toEqual([
      '192.168.0.8/31',
      '192.168.0.9/31',
    ]);
  });

  it("refuses node id 128 in a /24 with upstream's message", () => {
    expect(p2pPair(mustParseCidr('192.168.0.0/24'), 128)).toEqual(
      failure(
        'failed to generate P2P subnet for node ID 128: generated ip 192.168.1.0 from the idx 128 is out of range in the network 192.168.0.0/24',
      ),
    );
  });

  it('computes network40 at 192.168.4.0/31 as key 1025, as upstream does (the OKEP table says 513 with maxNodes 128: it disagrees)', () => {
    expect(layer2PortKey(mustParseCidr('192.168.4.0/31'), connect)).toBe(1025n);
    expect(layer3PortKey(mustParseCidr('192.168.200.0/24'), connect, 5)).toBe(51206n);
  });

  it("finds upstream's 5000-cap collision: 10.8.127.254/31 and 10.8.152.238/31 both get key 173192", () => {
    const wide = v4('10.0.0.0/8', 18);
    expect(layer2PortKey(mustParseCidr('10.8.127.254/31'), wide)).toBe(173192n);
    expect(layer2PortKey(mustParseCidr('10.8.152.238/31'), wide)).toBe(173192n);
    const problems = checkPorts({
      ref: 'c',
      network: 'n',
      topology: 'layer2',
      subnets: [mustParseCidr('10.8.127.254/31')],
      connectSubnets: [wide],
      nodes: [],
    });
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/collides/),
      expect.stringMatching(/exceeds OVN's limit of 32767/),
    ]);
  });

  it("computes IPv6 keys without upstream's 64-bit overflow for networkPrefix 64", () => {
    const v6 = { cidr: mustParseCidr('fd00::/48'), networkPrefix: 64 };
    expect(layer3PortKey(mustParseCidr('fd00:0:0:2::/64'), v6, 3)).toBe(2n * 5000n + 4n);
  });

  it('names only the node whose id does not fit and refuses keys past 32767 (192.168.0.0/16 p24 at network index 128)', () => {
    const nodes = [
      { name: 'a', id: 2 },
      { name: 'big', id: 130 },
    ];
    const problems = checkPorts({
      ref: 'c',
      network: 'n',
      topology: 'layer3',
      subnets: [mustParseCidr('192.168.128.0/24')],
      connectSubnets: [connect],
      nodes,
    });
    expect(problems.map((p) => p.reason)).toEqual(['ConnectSubnetExhausted', 'ConnectSubnetExhausted']);
    expect(problems[0]!.message).toMatch(/^node big \(id 130\) does not fit/);
    expect(problems[1]!.message).toMatch(/port tunnel key 32771 .* on node a/);
    expect(
      checkPorts({
        ref: 'c',
        network: 'n',
        topology: 'layer3',
        subnets: [mustParseCidr('192.168.127.0/24')],
        connectSubnets: [connect],
        nodes: [{ name: 'a', id: 127 }],
      }),
    ).toEqual([]);
  });
});
