import { describe, expect, it } from 'vitest';
import type { DesiredRow, ObservedRow } from '../../../provider/nb/desired';
import { nbSchema } from '../../../provider/nb/generated/nb';
import { checkOwner } from '../../../provider/nb/ownership';
import { reconcile, ReconcileError } from '../../../provider/nb/reconcile';
import { uuidFor } from './fixtures';

const copp = (): DesiredRow => ({ table: 'Copp', columns: { name: 'ovnkube-default', meters: {} }, shared: true });
const observedCopp = (externalIds: Record<string, string>): ObservedRow => ({
  table: 'Copp',
  uuid: uuidFor(7),
  columns: { _uuid: { uuid: uuidFor(7) }, name: 'ovnkube-default', meters: {}, external_ids: externalIds },
});
const plan = (owner: string, desired: DesiredRow[], observed: ObservedRow[] = []) =>
  reconcile({ owner, schema: nbSchema, desired, observed });
const written = (op: unknown) => (op as { row: { external_ids: unknown } }).row.external_ids;

describe('shared rows', () => {
  it('are created with the shared marker and the key of the owner that wants them', () => {
    const result = plan('a', [copp()]);
    expect(result.operations).toHaveLength(1);
    expect(written(result.operations[0])).toEqual([
      'map',
      [
        ['ovnk.io/owner', 'ovnk.io/shared'],
        ['ovnk.io/user/a', 'true'],
      ],
    ]);
  });

  it('are claimed by a second owner, keeping the first one key, under a guard on what was read', () => {
    const row = observedCopp({ 'ovnk.io/owner': 'ovnk.io/shared', 'ovnk.io/user/a': 'true' });
    const result = plan('b', [copp()], [row]);
    expect(result.operations.map((op) => op.op)).toEqual(['wait', 'update']);
    expect(written(result.operations[1])).toEqual([
      'map',
      [
        ['ovnk.io/owner', 'ovnk.io/shared'],
        ['ovnk.io/user/a', 'true'],
        ['ovnk.io/user/b', 'true'],
      ],
    ]);
    const claimed = observedCopp({
      'ovnk.io/owner': 'ovnk.io/shared',
      'ovnk.io/user/a': 'true',
      'ovnk.io/user/b': 'true',
    });
    expect(plan('b', [copp()], [claimed]).operations).toEqual([]);
  });

  it('are released, not deleted, by an owner that no longer wants them while another still does', () => {
    const row = observedCopp({ 'ovnk.io/owner': 'ovnk.io/shared', 'ovnk.io/user/a': 'true', 'ovnk.io/user/b': 'true' });
    const result = plan('a', [], [row]);
    expect(result.operations.map((op) => op.op)).toEqual(['wait', 'update']);
    expect(written(result.operations[1])).toEqual([
      'map',
      [
        ['ovnk.io/owner', 'ovnk.io/shared'],
        ['ovnk.io/user/b', 'true'],
      ],
    ]);
    expect(result.summary).toEqual(['update Copp "ovnkube-default": released, still used by b']);
  });

  it('are deleted by their last user, and left alone by an owner that never used them', () => {
    const row = observedCopp({ 'ovnk.io/owner': 'ovnk.io/shared', 'ovnk.io/user/b': 'true' });
    expect(plan('b', [], [row]).summary).toEqual(['delete Copp "ovnkube-default"']);
    expect(plan('a', [], [row]).operations).toEqual([]);
  });

  it('become shared when the owner that wrote one before rows were shared applies again', () => {
    const legacy = observedCopp({ 'ovnk.io/owner': 'a' });
    expect(written(plan('a', [copp()], [legacy]).operations[1])).toEqual([
      'map',
      [
        ['ovnk.io/owner', 'ovnk.io/shared'],
        ['ovnk.io/user/a', 'true'],
      ],
    ]);
  });

  it('are refused in a table that may not hold them, and no owner may take the shared marker as its name', () => {
    expect(() => plan('a', [{ table: 'Logical_Router', columns: { name: 'lr' }, shared: true }])).toThrow(
      ReconcileError,
    );
    expect(() => checkOwner('ovnk.io/shared')).toThrow('is reserved');
  });
});
