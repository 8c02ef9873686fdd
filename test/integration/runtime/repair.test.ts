import { describe, expect, it } from 'vitest';
import { applyZone, destroyZone, planTopology, repairZone } from '../../../provider/runtime/cli';
import { recording, writes } from '../../support/recordingDatabase';
import { blueLayer3, gatewayNode, useNorthbound } from '../../support/worlds';

// Issue 15 point 6 under a race: `ovnk repair` rebuilds a lost ledger from the owner markers while
// another writer of the same owner (an apply from another machine) stores the ledger between the
// repair's read and its commit. The repair must not claim a rebuild that did not happen, nor
// overwrite what that writer stored.
const NB = 'OVN_Northbound';
const owner = 'repair-race';
const LEDGER = `ovnk.io/owned/${owner}`;
const topology = blueLayer3(owner, [gatewayNode(1)]);

const nb = useNorthbound();

async function ledger(): Promise<string | undefined> {
  const [result] = await nb.client.transact(NB, [
    { op: 'select', table: 'NB_Global', where: [], columns: ['external_ids'] },
  ]);
  return (result!.rows?.[0]?.external_ids as Record<string, string>)[LEDGER];
}

async function setLedger(text?: string): Promise<void> {
  const mutate = (mutator: string, value: unknown) => ({
    op: 'mutate' as const,
    table: 'NB_Global',
    where: [],
    mutations: [['external_ids', mutator, value]] as never,
  });
  await nb.client.transact(NB, [
    mutate('delete', ['set', [LEDGER]]),
    ...(text === undefined ? [] : [mutate('insert', ['map', [[LEDGER, text]]])]),
  ]);
}

describe('repair raced by another writer of the same owner', () => {
  it('retries when that writer stores the lost ledger meanwhile, then keeps it and claims no rebuild', async () => {
    const planned = planTopology(topology);
    if (!planned.ok) throw new Error(planned.problems[0]!.message);
    await applyZone(nb.client, planned.plan.zones[0]!, owner, planned.plan.state);
    const stored = (await ledger())!;
    expect(stored).toContain('Static_MAC_Binding');
    await setLedger(undefined);
    const theirs = JSON.stringify({ Static_MAC_Binding: JSON.parse(stored).Static_MAC_Binding });
    const db = recording(nb.client, {
      beforeWrite: async (_ops, attempt) => {
        if (attempt === 1) await setLedger(theirs);
      },
    });
    const repaired = await repairZone(db, 'central', owner, undefined, '', { backoffMs: 1 });
    expect(writes(db)).toHaveLength(1);
    expect(repaired.attempts).toBe(2);
    expect(repaired).toMatchObject({ sent: false, rebuilt: [] });
    expect(await ledger()).toBe(theirs);
    await destroyZone(nb.client, 'central', owner);
  });
});
