import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeMapping, parseMappings, planMappings, removeMappings } from '../../../provider/uplink';

describe('bridge mappings', () => {
  it('a merge keeps other entries verbatim and in order and appends the new one', () => {
    expect(mergeMapping('physnet:breth0,,x:br-x', { network: 'cluster_udn_blue', bridge: 'br-blue' })).toBe(
      'physnet:breth0,,x:br-x,cluster_udn_blue:br-blue',
    );
  });

  it('a merge replaces every entry of the same physical network', () => {
    expect(
      mergeMapping('cluster_udn_blue:old,physnet:breth0,cluster_udn_blue:older', {
        network: 'cluster_udn_blue',
        bridge: 'br-blue',
      }),
    ).toBe('physnet:breth0,cluster_udn_blue:br-blue');
  });

  it('a merge into nothing is the one entry', () => {
    expect(mergeMapping(undefined, { network: 'n', bridge: 'b' })).toBe('n:b');
    expect(mergeMapping('', { network: 'n', bridge: 'b' })).toBe('n:b');
  });

  it('removing after merging gives back the other entries exactly', () => {
    const entry = fc
      .tuple(fc.stringMatching(/^[a-z_]{1,8}$/), fc.stringMatching(/^[a-z-]{1,8}$/))
      .map(([n, b]) => `${n}:${b}`);
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), (list) => {
        const others = list.filter((e) => !e.startsWith('cluster_udn_x:'));
        const text = others.join(',');
        expect(
          removeMappings(mergeMapping(text, { network: 'cluster_udn_x', bridge: 'br-x' }), ['cluster_udn_x']),
        ).toBe(text);
      }),
    );
  });

  it('parsing takes the first entry of a network', () => {
    expect(parseMappings('a:b1,c:d,a:b2')).toEqual(
      new Map([
        ['a', 'b1'],
        ['c', 'd'],
      ]),
    );
  });

  it('a plan adds the wanted mapping and records it as owned', () => {
    const change = planMappings('physnet:breth0', undefined, [{ network: 'cluster_udn_blue', bridge: 'br-blue' }]);
    expect(change).toEqual({
      mappings: 'physnet:breth0,cluster_udn_blue:br-blue',
      owned: 'cluster_udn_blue',
      set: [{ network: 'cluster_udn_blue', bridge: 'br-blue' }],
      removed: [],
    });
  });

  it('a plan is empty when the node already matches', () => {
    expect(
      planMappings('physnet:breth0,cluster_udn_blue:br-blue', 'cluster_udn_blue', [
        { network: 'cluster_udn_blue', bridge: 'br-blue' },
      ]),
    ).toBeUndefined();
  });

  it('a plan removes only owned mappings no longer wanted', () => {
    const change = planMappings(
      'physnet:breth0,cluster_udn_blue:br-blue,cluster_udn_red:br-red',
      'cluster_udn_blue',
      [],
    );
    expect(change?.mappings).toBe('physnet:breth0,cluster_udn_red:br-red');
    expect(change?.owned).toBeUndefined();
    expect(change?.removed).toEqual(['cluster_udn_blue']);
  });

  it('a plan leaves an unowned mapping of the same network alone until it is wanted', () => {
    expect(planMappings('cluster_udn_blue:br-x', undefined, [])).toBeUndefined();
  });
});
