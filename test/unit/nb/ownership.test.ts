import { describe, expect, it } from 'vitest';
import { rowIdentity } from '../../../provider/nb/desired';
import { isOwnedBy, OwnershipError, RowKindRegistry, rowKey, withOwner } from '../../../provider/nb/ownership';

describe('ownership', () => {
  it('only the marker makes a row ours', () => {
    expect(isOwnedBy({ 'ovnk.io/owner': 'stack-a', 'k8s.ovn.org/id': 'x' }, 'stack-a')).toBe(true);
    expect(isOwnedBy({ 'ovnk.io/owner': 'stack-b' }, 'stack-a')).toBe(false);
    expect(isOwnedBy({ 'k8s.ovn.org/owner-controller': 'stack-a' }, 'stack-a')).toBe(false);
    expect(isOwnedBy(undefined, 'stack-a')).toBe(false);
  });

  it("adds the marker and keeps upstream's external_ids", () => {
    expect(withOwner({ 'k8s.ovn.org/network': 'blue' }, 'stack-a')).toEqual({
      'k8s.ovn.org/network': 'blue',
      'ovnk.io/owner': 'stack-a',
    });
  });

  it('refuses an owner name that could not be matched exactly', () => {
    expect(() => withOwner({}, 'a=b')).toThrow(OwnershipError);
    expect(() => withOwner({}, '')).toThrow('nb: owner "" is not a valid owner name');
  });

  it('registering the same row kind twice throws', () => {
    const registry = new RowKindRegistry();
    registry.register({ table: 'Logical_Router_Static_Route', ownerType: 'ConnectRoute', keys: ['network', 'prefix'] });
    expect(() =>
      registry.register({ table: 'Logical_Router_Static_Route', ownerType: 'ConnectRoute', keys: ['x'] }),
    ).toThrow('nb: row kind Logical_Router_Static_Route/ConnectRoute is registered twice');
    expect(registry.registered()).toHaveLength(1);
  });

  it('builds row keys in key order, escaping separators so ids never collide', () => {
    const kind = { table: 'Logical_Router_Static_Route', ownerType: 'ConnectRoute', keys: ['network', 'prefix'] };
    expect(rowKey(kind, { prefix: 'fd00::/64', network: 'blue' })).toBe('ConnectRoute:blue:fd00%3A%3A/64');
    expect(rowKey(kind, { network: 'a:b', prefix: 'c' })).not.toBe(rowKey(kind, { network: 'a', prefix: 'b:c' }));
    expect(() => rowKey(kind, { network: 'blue' })).toThrow('key [prefix] is missing');
    expect(() => rowKey(kind, { network: 'blue', prefix: 'p', extra: 'x' })).toThrow('has no key(s) [extra]');
  });
});

describe('row identity', () => {
  it("is the name, else upstream's id, else our key", () => {
    expect(rowIdentity('Logical_Router_Port', { name: 'rtoj-blue', external_ids: { 'k8s.ovn.org/id': 'x' } })).toBe(
      'rtoj-blue',
    );
    expect(rowIdentity('ACL', { name: '', external_ids: { 'k8s.ovn.org/id': 'x', 'ovnk.io/key': 'k' } })).toBe('x');
    expect(rowIdentity('Logical_Router_Static_Route', { external_ids: { 'ovnk.io/key': 'k' } })).toBe('k');
    expect(rowIdentity('Logical_Router_Static_Route', { ip_prefix: '10.0.0.0/8' })).toBeUndefined();
  });
});
