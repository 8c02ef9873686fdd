import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dynamicUrn, linkedConsumer, type Props, PulumiHost, serializeShim } from '../support/pulumiHost';

// State recorded from this version (fixtures/cluster-allocations.v1.json, schemaVersion 1, made
// by ClusterAllocations check + create) must stay readable and updatable by the runtime:
// no replacement, no change of allocations, the same id.
const lab = inject('lab');
const fixture = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'cluster-allocations.v1.json'), 'utf8')) as { id: string; outputs: Props };
const urn = dynamicUrn('ClusterAllocations', 'upgrade');
let host: PulumiHost;
let consumer: { dir: string; remove: () => void };
let provider: string;

const inputsOf = (outs: Props) => ({ owner: outs.owner, inventory: outs.inventory, networks: outs.networks, connects: outs.connects });

beforeAll(async () => {
  consumer = linkedConsumer();
  host = await PulumiHost.start(consumer.dir);
  provider = await serializeShim('ClusterAllocations');
  await host.configure({ 'ovnk:nb': lab.nb });
}, 60_000);

afterAll(async () => {
  await host?.stop();
  consumer?.remove();
});

describe('state written by version 1', () => {
  it('the same program against the recorded state plans no change and no replacement', async () => {
    const olds = { ...fixture.outputs, __provider: provider };
    const checked = await host.check(urn, olds, { __provider: provider, ...inputsOf(fixture.outputs) });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.allocations).toEqual(fixture.outputs.allocations);
    expect(await host.diff(fixture.id, urn, olds, checked.inputs)).toEqual({ changes: 1, replaces: [], deleteBeforeReplace: false });
  });

  it('update from the recorded state keeps the allocations, writes the shared rows and delete removes them', async () => {
    const olds = { ...fixture.outputs, __provider: provider };
    const checked = await host.check(urn, olds, { __provider: provider, ...inputsOf(fixture.outputs) });
    const updated = await host.update(fixture.id, urn, olds, checked.inputs);
    expect(updated.properties.schemaVersion).toBe(1);
    expect(updated.properties.allocations).toEqual(fixture.outputs.allocations);
    expect((updated.properties.zones as string[]).length).toBeGreaterThan(0);
    const read = await host.read(fixture.id, urn, updated.properties);
    expect(read.properties.drift).toEqual({ lines: [], count: 0 });
    await host.delete(fixture.id, urn, updated.properties);
  });

  it('state from a newer version is refused with a message naming schemaVersion', async () => {
    await expect(host.read(fixture.id, urn, { ...fixture.outputs, schemaVersion: 99, __provider: provider })).rejects.toThrow(/schemaVersion 99.*upgrade the ovnk-pulumi package/);
  });
});
