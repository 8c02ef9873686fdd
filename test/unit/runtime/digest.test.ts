import { describe, expect, it } from 'vitest';
import type { DesiredRow } from '../../../provider/nb/desired';
import { inputChanged } from '../../../provider/runtime/pulumi/kind';
import { digestRows } from '../../../provider/runtime/pulumi/nbRows';
import { UNKNOWN } from '../../../provider/runtime/pulumi/protocol';

// Issue 28.3: the renderers built upstream's external_ids in three key orders; the digest a stack
// stores and the diff decisions must not depend on the order a row or an input was built in.
const acl = (externalIds: Record<string, string>): DesiredRow => ({
  table: 'ACL',
  columns: { priority: 1001, direction: 'to-lport', external_ids: externalIds },
});

describe("the rows' digest and the providers' input comparison", () => {
  it('give a row the same digest whatever order its external_ids keys were built in', () => {
    const ordered = acl({
      'k8s.ovn.org/owner-controller': 'c',
      'k8s.ovn.org/owner-type': 'NetpolNode',
      ip: '10.0.0.2',
    });
    const reordered = acl({
      ip: '10.0.0.2',
      'k8s.ovn.org/owner-type': 'NetpolNode',
      'k8s.ovn.org/owner-controller': 'c',
    });
    expect(digestRows([reordered])).toBe(digestRows([ordered]));
  });

  it('give a row another digest when a value changes', () => {
    const before = acl({ 'k8s.ovn.org/owner-type': 'NetpolNode', ip: '10.0.0.2' });
    const after = acl({ 'k8s.ovn.org/owner-type': 'NetpolNode', ip: '10.0.0.3' });
    expect(digestRows([after])).not.toBe(digestRows([before]));
  });

  it('see no change in an input whose keys come in another order, and see a changed, unknown or new value', () => {
    const olds = { inventory: { spec: { a: 1, b: [1, 2] }, kind: 'Inventory' } };
    expect(inputChanged(olds, { inventory: { kind: 'Inventory', spec: { b: [1, 2], a: 1 } } }, 'inventory')).toBe(
      false,
    );
    expect(inputChanged(olds, { inventory: { kind: 'Inventory', spec: { b: [2, 1], a: 1 } } }, 'inventory')).toBe(true);
    expect(inputChanged(olds, { inventory: UNKNOWN }, 'inventory')).toBe(true);
    expect(inputChanged(olds, {}, 'inventory')).toBe(false);
    expect(inputChanged({}, { owner: 'a' }, 'owner')).toBe(true);
  });
});
