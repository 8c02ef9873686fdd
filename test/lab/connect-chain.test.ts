import { describe, expect, inject, it } from 'vitest';
import '../setup/lab';
import { misbehaving, probes, stack } from './connect-helpers';
import { appliedForTheseTests, ovnk, ownedRowCounts } from './networks-helpers';

const lab = inject('lab');
const file = stack('connect-chain.yaml');
const pairs = (from: string[], to: string[]) =>
  probes(lab, [...from, ...to]).filter((p) => from.includes(p.from) !== from.includes(p.to));
const [alpha, beta, gamma, delta] = ['alpha', 'beta', 'gamma', 'delta'].map((ns) => [`${ns}/a`, `${ns}/b`]) as [
  string[],
  string[],
  string[],
  string[],
];

appliedForTheseTests(lab, file);

describe('two connects in a chain (alpha-beta, beta-gamma) and a network no connect selects', () => {
  it('the Layer3 network reaches the Layer2 network of its connect and back, on other nodes', async () => {
    expect(await misbehaving(lab, pairs(alpha, beta), true)).toEqual([]);
  });

  it('two Layer2 networks of one connect reach each other, both directions', async () => {
    expect(await misbehaving(lab, pairs(beta, gamma), true)).toEqual([]);
  });

  it('connects are not transitive: alpha does not reach gamma and gamma does not reach alpha', async () => {
    expect(await misbehaving(lab, pairs(alpha, gamma), false)).toEqual([]);
  });

  it('the network selected by no connect reaches nobody and nobody reaches it, while its own pods reach each other', async () => {
    expect(await misbehaving(lab, pairs(delta, [...alpha, ...beta, ...gamma]), false)).toEqual([]);
    expect(await misbehaving(lab, probes(lab, delta), true)).toEqual([]);
  });

  it('destroy removes both connects and every network of this owner', async () => {
    expect(ovnk('destroy', '-f', file, '--lab', lab.name).status).toBe(0);
    expect(await ownedRowCounts(lab, 'connect-chain')).toEqual({});
  });
});
