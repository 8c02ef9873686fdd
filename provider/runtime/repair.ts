/**
 * Rebuilding an owner's bookkeeping in one zone's Northbound from what it holds: the ledger from
 * the owner markers (nb/ledgerRecovery.ts) and the state key from the state the caller settled on
 * (another zone's readable copy, or a plan checked against the rows), each only when it is lost
 * or unreadable. One guarded transaction (commit.ts); nothing when both are readable.
 */
import { writeHomeKey, type KeyWrite } from '../nb/homeKey';
import { ledgerHome, ledgerKey, serializeLedger } from '../nb/ledger';
import { recoverLedger, unreadableLedger } from '../nb/ledgerRecovery';
import type { Plan } from '../nb/reconcile';
import type { OvsdbDatabase } from '../ovsdb/client';
import { commit, type CommitOptions, type GlobalRow } from './commit';
import { NB_DATABASE } from './connections';
import { parseState, selectGlobal, serializeState, stateKey, StateError, type RuntimeState } from './state';

/** How a bookkeeping key reads: fine, absent, or there but unusable (with why). */
export type KeyHealth = { status: 'readable' } | { status: 'missing' } | { status: 'unreadable'; problem: string };

export interface ZoneBookkeeping {
  global: GlobalRow;
  state: KeyHealth & { parsed?: RuntimeState };
  ledger: KeyHealth;
}

export interface RepairResult {
  zone: string;
  endpoint: string;
  sent: boolean;
  /** What was rebuilt, in words (empty when both keys were readable). */
  rebuilt: string[];
  attempts: number;
}

async function readGlobal(db: OvsdbDatabase): Promise<GlobalRow> {
  const [result] = await db.transact(NB_DATABASE, [selectGlobal()]);
  const row = result!.rows?.[0];
  return { exists: row !== undefined, ids: (row?.external_ids ?? {}) as Record<string, string> };
}

function stateHealth(text: string | undefined, where: string): ZoneBookkeeping['state'] {
  if (text === undefined) return { status: 'missing' };
  try {
    return { status: 'readable', parsed: parseState(text, where) };
  } catch (error) {
    if (!(error instanceof StateError)) throw error;
    return { status: 'unreadable', problem: error.message };
  }
}

/** The owner's state and ledger keys in this zone, as they read. */
export async function inspectZone(db: OvsdbDatabase, owner: string): Promise<ZoneBookkeeping> {
  const global = await readGlobal(db);
  const ledgerText = global.ids[ledgerKey(owner)];
  return {
    global,
    state: stateHealth(global.ids[stateKey(owner)], `NB_Global.external_ids["${stateKey(owner)}"] of ${db.endpoint}`),
    ledger:
      ledgerText === undefined
        ? { status: 'missing' }
        : unreadableLedger(ledgerText)
          ? { status: 'unreadable', problem: `NB_Global.external_ids["${ledgerKey(owner)}"] is not a ledger` }
          : { status: 'readable' },
  };
}

const words = (health: KeyHealth) => (health.status === 'unreadable' ? `unreadable (${health.problem})` : 'missing');

/** The writes and lines of one zone's repair (nothing for keys that read fine). */
async function repairPlan(db: OvsdbDatabase, owner: string, state: RuntimeState | undefined, source: string) {
  const found = await inspectZone(db, owner);
  const home = ledgerHome(NB_DATABASE)!;
  const writes: KeyWrite[] = [];
  const lines: string[] = [];
  if (found.ledger.status !== 'readable') {
    const recovered = serializeLedger(await recoverLedger(db, NB_DATABASE, owner));
    const before = found.global.ids[ledgerKey(owner)];
    if (recovered !== before) {
      writes.push(writeHomeKey(home, ledgerKey(owner), before, recovered, found.global.exists));
      lines.push(`ledger ${words(found.ledger)}: rebuilt from the owner markers as ${recovered ?? '{} (removed)'}`);
    }
  }
  if (found.state.status !== 'readable' && state !== undefined) {
    const exists = found.global.exists || writes.some((w) => w.operations.some((op) => op.op === 'insert'));
    writes.push(writeHomeKey(home, stateKey(owner), found.global.ids[stateKey(owner)], serializeState(state), exists));
    lines.push(`state ${words(found.state)}: rebuilt from ${source}`);
  }
  const plan: Plan = {
    operations: writes.flatMap((w) => w.operations),
    guards: writes.flatMap((w) => w.guards),
    changes: [],
    summary: lines,
  };
  return { plan, global: found.global };
}

/**
 * Rebuild what is lost or unreadable of `owner`'s bookkeeping in the zone: the ledger from the
 * markers, the state from `state` (`source` says where it came from; undefined leaves it).
 */
export async function repairZone(
  db: OvsdbDatabase,
  zone: string,
  owner: string,
  state: RuntimeState | undefined,
  source: string,
  options: CommitOptions = {},
): Promise<RepairResult> {
  const committed = await commit(db, owner, (conn) => repairPlan(conn, owner, state, source), options);
  return {
    zone,
    endpoint: db.endpoint,
    sent: committed.sent,
    rebuilt: committed.plan.summary,
    attempts: committed.attempts,
  };
}
