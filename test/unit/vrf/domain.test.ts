import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RouteAdvertisements } from '../../../provider/model/routeAdvertisements';
import { bridgeConflicts, cudnVrfName, effectiveDomain, vrfTableFor } from '../../../provider/uplink/vrf';

const EMPTY = { matchLabels: {}, matchExpressions: [] };
function ra(
  name: string,
  targetVRF: string | undefined,
  cudnLabels: Record<string, string>,
  advertisements: ('PodNetwork' | 'EgressIP')[] = ['PodNetwork'],
): RouteAdvertisements {
  return {
    ref: `RouteAdvertisements/${name}`,
    name,
    ...(targetVRF ? { targetVRF } : {}),
    advertisements,
    nodeSelector: EMPTY,
    frrConfigurationSelector: EMPTY,
    networkSelectors: [
      { networkSelectionType: 'ClusterUserDefinedNetworks', cudnSelector: { matchLabels: cudnLabels } },
    ],
  };
}
const blue = { name: 'blue', networkId: 2, labels: { tenant: 'blue' } };

describe('effective routing domain', () => {
  it('a CUDN no RouteAdvertisements selects stays in the default VRF', () => {
    expect(effectiveDomain(blue, {}, [ra('other', 'auto', { tenant: 'red' })])).toEqual({
      kind: 'default',
      why: 'not-advertised',
    });
  });

  it("targetVRF auto puts the uplink in the CUDN's own VRF", () => {
    expect(effectiveDomain(blue, {}, [ra('blue-ra', 'auto', { tenant: 'blue' })])).toEqual({
      kind: 'vrf',
      vrf: 'blue',
      targets: ['auto'],
      by: ['blue-ra'],
    });
  });

  it("a custom non-default target still uses the CUDN's own VRF, as upstream does", () => {
    expect(effectiveDomain(blue, {}, [ra('x', 'tenant-x', { tenant: 'blue' })])).toMatchObject({
      kind: 'vrf',
      vrf: 'blue',
      targets: ['tenant-x'],
    });
  });

  it('targetVRF default, an absent target, or advertising to both keeps the default VRF', () => {
    expect(effectiveDomain(blue, {}, [ra('d', 'default', { tenant: 'blue' })])).toEqual({
      kind: 'default',
      why: 'default-target',
    });
    expect(effectiveDomain(blue, {}, [ra('n', undefined, { tenant: 'blue' })])).toEqual({
      kind: 'default',
      why: 'default-target',
    });
    expect(
      effectiveDomain(blue, {}, [ra('a', 'auto', { tenant: 'blue' }), ra('d', 'default', { tenant: 'blue' })]),
    ).toEqual({ kind: 'default', why: 'default-target' });
  });

  it('an advertisement of EgressIP only does not move the uplink', () => {
    expect(effectiveDomain(blue, {}, [ra('e', 'auto', { tenant: 'blue' }, ['EgressIP'])])).toEqual({
      kind: 'default',
      why: 'not-advertised',
    });
  });

  it("a CUDN name longer than 15 characters gives the VRF upstream's mp<id>-udn-vrf name", () => {
    expect(cudnVrfName('fifteen-chars-x', 7)).toBe('fifteen-chars-x');
    expect(cudnVrfName('sixteen-chars-xy', 7)).toBe('mp7-udn-vrf');
  });

  it('the table follows the management port index when there is one, else 100000 plus the network id', () => {
    expect(vrfTableFor(5, 12)).toBe(1012);
    expect(vrfTableFor(5, undefined)).toBe(100005);
  });
});

describe('bridge conflicts', () => {
  const auto = (vrf: string) => ({ kind: 'vrf' as const, vrf, targets: ['auto'], by: [] });
  const dflt = { kind: 'default' as const, why: 'not-advertised' as const };

  it('two CUDNs on one bridge in distinct VRFs both conflict with one message', () => {
    const found = bridgeConflicts('n1', [
      { cudn: 'red', bridge: 'br-x', domain: auto('red') },
      { cudn: 'blue', bridge: 'br-x', domain: auto('blue') },
    ]);
    expect(found.map((c) => c.cudn)).toEqual(['blue', 'red']);
    expect(new Set(found.map((c) => c.message)).size).toBe(1);
    expect(found[0]!.message).toContain('bridge br-x on node n1');
  });

  it('a VRF CUDN and a default-VRF CUDN on one bridge conflict too; default-VRF CUDNs may share', () => {
    expect(
      bridgeConflicts('n1', [
        { cudn: 'a', bridge: 'b', domain: auto('a') },
        { cudn: 'c', bridge: 'b', domain: dflt },
      ]),
    ).toHaveLength(2);
    expect(
      bridgeConflicts('n1', [
        { cudn: 'a', bridge: 'b', domain: dflt },
        { cudn: 'c', bridge: 'b', domain: dflt },
      ]),
    ).toEqual([]);
  });

  it('conflicts are symmetric and independent of input order (property)', () => {
    const use = fc.record({
      cudn: fc.constantFrom('a', 'b', 'c', 'd'),
      bridge: fc.constantFrom('br1', 'br2'),
      vrf: fc.constantFrom('default', 'a', 'b', 'c', 'd'),
    });
    fc.assert(
      fc.property(fc.uniqueArray(use, { selector: (u) => u.cudn }), (raw) => {
        const uses = raw.map((u) => ({
          cudn: u.cudn,
          bridge: u.bridge,
          domain: u.vrf === 'default' ? dflt : auto(u.vrf),
        }));
        const forward = bridgeConflicts('n', uses);
        const backward = bridgeConflicts('n', [...uses].reverse());
        const key = (cs: { cudn: string }[]) => cs.map((c) => c.cudn).sort();
        expect(key(forward)).toEqual(key(backward));
        for (const c of forward) {
          const mates = uses.filter((u) => u.bridge === uses.find((x) => x.cudn === c.cudn)!.bridge);
          for (const mate of mates) expect(key(forward)).toContain(mate.cudn);
        }
      }),
    );
  });
});
