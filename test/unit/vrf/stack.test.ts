import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDocuments } from '../../../provider/model/load';
import type { Problem } from '../../../provider/model/problem';
import { parseRouteAdvertisementsDocuments } from '../../../provider/model/routeAdvertisements';
import { bridgeConflicts, effectiveDomain } from '../../../provider/uplink/vrf';

describe('the vrf-lite stack', () => {
  const text = readFileSync(path.join(__dirname, '..', '..', '..', 'stacks', 'vrf-lite.yaml'), 'utf8');
  const loaded = loadDocuments(text);
  const problems: Problem[] = [];
  const ras = parseRouteAdvertisementsDocuments(loaded.documents, problems);
  const cudn = (name: string) => {
    const doc = loaded.documents.find((d) => d.kind === 'ClusterUserDefinedNetwork' && d.metadata.name === name)!;
    return { name, networkId: 1, labels: doc.metadata.labels };
  };

  it('has one valid RouteAdvertisements, for blue', () => {
    expect(problems).toEqual([]);
    expect(ras.map((ra) => [ra.name, ra.targetVRF])).toEqual([['blue-ra', 'auto']]);
  });

  it('puts blue in its own VRF and leaves red in the default VRF, with no bridge conflict', () => {
    const blue = effectiveDomain(cudn('blue'), { 'kubernetes.io/hostname': 'ovn-worker' }, ras);
    const red = effectiveDomain(cudn('red'), { 'kubernetes.io/hostname': 'ovn-worker' }, ras);
    expect(blue).toMatchObject({ kind: 'vrf', vrf: 'blue' });
    expect(red).toEqual({ kind: 'default', why: 'not-advertised' });
    expect(
      bridgeConflicts('ovn-worker', [
        { cudn: 'blue', bridge: 'br-blue', domain: blue },
        { cudn: 'red', bridge: 'br-red', domain: red },
      ]),
    ).toEqual([]);
  });
});
