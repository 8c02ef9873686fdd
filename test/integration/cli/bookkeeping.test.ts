import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { documentOf, ovnk } from '../../support/cli';
import { gatewayNode, layer3, networkFor, ownedNetworks } from '../../support/objects';
import { startOvsdbServer, type OvsdbServer, nbctl } from '../../support/ovsdbServer';

// One owner in two per-node zones (each Northbound keeps a copy of the state), with gateway
// details so each zone has ledger rows (Static_MAC_Binding), on real ovsdb-servers.
const owner = 'bookkeeping';
const topology = (zones: string, cidr = '10.10.0.0/16') =>
  ownedNetworks(owner, { zones, nodes: [gatewayNode(1), gatewayNode(2)] }, networkFor('blue', layer3(cidr, 24)));

const STATE = `ovnk.io/state/${owner}`;
const LEDGER = `ovnk.io/owned/${owner}`;
let n1: OvsdbServer;
let n2: OvsdbServer;
let dir: string;
let perNode: string;
let nb: string[];

const keys = async (server: OvsdbServer) => nbctl(server, 'get', 'NB_Global', '.', 'external_ids');
const bindings = async (server: OvsdbServer) => nbctl(server, '--bare', '--columns=ip', 'list', 'Static_MAC_Binding');
/** Sets (or with undefined removes) one NB_Global key, as a person or a broken tool would. */
const setKey = async (server: OvsdbServer, key: string, value?: string) =>
  value === undefined
    ? nbctl(server, 'remove', 'NB_Global', '.', 'external_ids', `"${key}"`)
    : nbctl(server, 'set', 'NB_Global', '.', `external_ids:"${key}"=${JSON.stringify(value)}`);

beforeAll(async () => {
  [n1, n2] = await Promise.all([startOvsdbServer(), startOvsdbServer()]);
  dir = mkdtempSync(join(tmpdir(), 'ovnk-bookkeeping-'));
  perNode = join(dir, 'per-node.yaml');
  writeFileSync(perNode, topology('per-node'));
  nb = ['--nb', `n1=${n1.unix}`, '--nb', `n2=${n2.unix}`];
});
afterAll(async () => {
  await Promise.all([n1?.stop(), n2?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  ovnk(['destroy', '-f', perNode, ...nb]);
  expect(ovnk(['apply', '-f', perNode, ...nb]).code).toBe(0);
});

describe('destroy works from the owner markers alone', () => {
  it('removes every row and key of the owner when its state and ledger keys are unreadable', async () => {
    await setKey(n1, STATE, '{not json');
    await setKey(n1, LEDGER, '[1');
    const destroyed = ovnk(['destroy', '-f', perNode, ...nb, '-o', 'json']);
    expect(destroyed.code).toBe(0);
    const notes = documentOf(destroyed).zones.n1.notes;
    expect(notes[0]).toMatch(/ovnk.io\/state\/bookkeeping.* is not JSON.*: not needed to destroy$/);
    expect(notes[1]).toMatch(
      /^ledger unreadable: rebuilt from the owner markers as \{"Load_Balancer_Group":\[.*\],"Static_MAC_Binding":\[/,
    );
    for (const server of [n1, n2]) {
      expect(await keys(server)).toBe('{}');
      expect(await bindings(server)).toBe('');
      expect(await nbctl(server, '--bare', '--columns=name', 'list', 'Logical_Router')).toBe('');
    }
  });

  it('removes the ledger rows of a lost ledger too, found through the ports they bind', async () => {
    await setKey(n2, LEDGER);
    expect(ovnk(['destroy', '-f', perNode, ...nb]).code).toBe(0);
    expect(await bindings(n2)).toBe('');
  });
});

describe('ovnk repair rebuilds what the Northbound holds', () => {
  it("an unreadable state: apply refuses (exit 3) naming repair, which copies another zone's state; apply then sends nothing", async () => {
    await setKey(n1, STATE, '{not json');
    const refused = ovnk(['apply', '-f', perNode, ...nb]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/is not JSON.*`ovnk repair` rebuilds it/);
    const repaired = ovnk(['repair', '-f', perNode, ...nb, '-o', 'json']);
    expect(repaired.code).toBe(0);
    expect(documentOf(repaired).zones).toMatchObject({
      n1: { sent: true, rebuilt: [expect.stringMatching(/^state unreadable \(.*\): rebuilt from zone n2's copy$/)] },
      n2: { sent: false, rebuilt: [] },
    });
    expect(documentOf(ovnk(['apply', '-f', perNode, ...nb, '-o', 'json'])).zones.n1.sent).toBe(false);
  });

  it('a lost ledger: apply refuses (exit 1) naming repair, which rebuilds the ledger from the markers; apply then sends nothing', async () => {
    const before = await nbctl(n2, 'get', 'NB_Global', '.', `external_ids:"${LEDGER}"`);
    await setKey(n2, LEDGER);
    const refused = ovnk(['apply', '-f', perNode, ...nb]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/`ovnk repair` rebuilds the ledger/);
    const repaired = ovnk(['repair', '-f', perNode, ...nb, '-o', 'json']);
    expect(repaired.code).toBe(0);
    expect(documentOf(repaired).zones.n2.rebuilt).toEqual([
      expect.stringMatching(
        /^ledger missing: rebuilt from the owner markers as \{"Load_Balancer_Group":\[.*\],"Static_MAC_Binding":\[/,
      ),
    ]);
    expect(await nbctl(n2, 'get', 'NB_Global', '.', `external_ids:"${LEDGER}"`)).toBe(before);
    expect(documentOf(ovnk(['apply', '-f', perNode, ...nb, '-o', 'json'])).zones.n2.sent).toBe(false);
  });

  it('with no readable state anywhere, keeps a fresh plan only when it matches every row (else refuses, exit 1)', async () => {
    for (const server of [n1, n2]) await setKey(server, STATE);
    const changed = join(dir, 'changed.yaml');
    writeFileSync(changed, topology('per-node', '10.99.0.0/16'));
    const refused = ovnk(['repair', '-f', changed, ...nb]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/no zone holds a readable state, and a fresh plan of .* differs from \d+ rows/);
    expect(await keys(n1)).not.toContain(STATE);
    const repaired = ovnk(['repair', '-f', perNode, ...nb, '-o', 'json']);
    expect(repaired.code).toBe(0);
    expect(documentOf(repaired).zones.n1.rebuilt).toEqual([
      expect.stringMatching(/^state missing: rebuilt from a fresh plan of .*, which matches every row of this owner$/),
    ]);
    expect(documentOf(ovnk(['apply', '-f', perNode, ...nb, '-o', 'json'])).zones.n1.sent).toBe(false);
  });
});
