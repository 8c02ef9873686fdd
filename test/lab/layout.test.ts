import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LabError } from '../../lab/errors';
import {
  chassisIdOf,
  checkLabName,
  checkNodeCount,
  checkOvnFlavor,
  checkZoneLayout,
  labLayout,
  MAX_INDEX,
} from '../../lab/layout';
import { DEFAULT_LAYOUT, LAYOUTS } from '../../provider/model/zones';

function claims(index: number): string[] {
  const layout = labLayout({ name: `l${index}`, index, nodes: 3, ovn: 'bookworm', dir: `/x/l${index}` });
  return [
    layout.fabricNamespace,
    layout.hostLink,
    layout.centralIp,
    layout.underlayGateway,
    `port ${layout.nbPort}`,
    `port ${layout.sbPort}`,
    ...layout.nodes.flatMap((n) => [n.namespace, n.mgmtIp, n.encapIp]),
  ];
}

describe('lab layout', () => {
  it('two labs with different indexes share no namespace, root link, address or port', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_INDEX }), fc.integer({ min: 1, max: MAX_INDEX }), (a, b) => {
        fc.pre(a !== b);
        const mine = new Set(claims(a));
        expect(claims(b).filter((claim) => mine.has(claim))).toEqual([]);
      }),
    );
  });

  it('names every root-namespace interface within the 15-character limit', () => {
    const layout = labLayout({
      name: 'a-rather-long-lab-name',
      index: MAX_INDEX,
      nodes: 50,
      ovn: 'bookworm',
      dir: '/x',
    });
    expect(layout.hostLink.length).toBeLessThanOrEqual(15);
    for (const node of layout.nodes) expect(node.fabricUnderlayLink.length).toBeLessThanOrEqual(15);
  });

  it('numbers nodes from id 2 with upstream kind names', () => {
    const layout = labLayout({ name: 'lab', index: 1, nodes: 3, ovn: 'bookworm', dir: '/x' });
    expect(layout.nodes.map((n) => [n.name, n.id])).toEqual([
      ['ovn-worker', 2],
      ['ovn-worker2', 3],
      ['ovn-worker3', 4],
    ]);
  });

  it('derives chassis ids that are stable, distinct per lab and node, and shaped as UUIDs', () => {
    expect(chassisIdOf('lab', 'ovn-worker')).toBe(chassisIdOf('lab', 'ovn-worker'));
    expect(chassisIdOf('lab', 'ovn-worker')).not.toBe(chassisIdOf('lab', 'ovn-worker2'));
    expect(chassisIdOf('lab', 'ovn-worker')).not.toBe(chassisIdOf('other', 'ovn-worker'));
    expect(chassisIdOf('lab', 'ovn-worker')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('rejects a bad name, node count or OVN flavor as bad input naming the value', () => {
    const cases: [() => unknown, RegExp][] = [
      [() => checkLabName('Bad Name'), /lab name "Bad Name"/],
      [() => checkNodeCount(0), /--nodes 0/],
      [() => checkNodeCount(2.5), /--nodes 2.5/],
      [() => checkOvnFlavor('focal'), /--ovn focal .*bookworm, trixie/],
    ];
    for (const [call, message] of cases) {
      let caught: unknown;
      try {
        call();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(LabError);
      expect((caught as LabError).kind).toBe('bad-input');
      expect((caught as LabError).message).toMatch(message);
    }
  });

  it("builds exactly the model's zone layouts, the model's default when none is asked for", () => {
    for (const layout of LAYOUTS) expect(checkZoneLayout(layout)).toBe(layout);
    expect(() => checkZoneLayout('per-zone')).toThrow(/--zones per-zone is not known: use one of per-node, central/);
    const layout = labLayout({ name: 'l1', index: 1, nodes: 2, ovn: 'trixie', dir: '/x/l1' });
    expect(layout.zones).toBe(DEFAULT_LAYOUT);
  });
});
