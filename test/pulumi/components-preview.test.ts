import { beforeAll, describe, expect, it } from 'vitest';
import { topologyArgs } from './fixtures';
import { installMocks, isKnown, valueOf } from './mocks';

describe('components in a preview', () => {
  // q-* clusters get allocations from the real check; p-* ones stay unknown.
  beforeAll(() => installMocks(true, (name) => name.startsWith('q')));

  it('while the allocations are not known yet, network and connect outputs are unknown and nothing throws', async () => {
    const { Cluster } = await import('../../components');
    const cluster = new Cluster('p', topologyArgs('colored-enterprise', 'central'));
    expect(await isKnown(cluster.networks['blue-network']!.networkId)).toBe(false);
    expect(await isKnown(cluster.connects['colored-enterprise']!.tunnelKey)).toBe(false);
    expect(await isKnown(cluster.allocationsResource.urn)).toBe(true);
    await valueOf(cluster.urn);
  });

  it('when check has allocated (as the real check does at preview), the outputs are known', async () => {
    const { Cluster } = await import('../../components');
    const cluster = new Cluster('q', topologyArgs('colored-enterprise', 'central'));
    expect(await isKnown(cluster.networks['green-network']!.networkId)).toBe(true);
    expect(typeof (await valueOf(cluster.networks['green-network']!.networkId))).toBe('number');
  });
});
