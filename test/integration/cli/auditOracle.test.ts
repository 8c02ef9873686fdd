/**
 * `ovnk audit`'s engine against upstream's own Northbound: every dump the oracle committed
 * (test/oracle/<source>/<zone>.json, written by upstream's zone controllers, oracle/harness/
 * ovnk_oracle_test.go) is loaded into a real ovsdb-server and audited with the topology file it
 * came from (its `source`, with the lab-like nodes, per-node zones and pod UIDs the oracle fed
 * upstream: oracle/plan.ts). The audit must agree, except for what test/oracle/accepted.yaml
 * lists for that source (the oracle's own accepted differences, matched the same way).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trixieRoot } from '../../../lab/trixie';
import { explains, readAccepted } from '../../../oracle/accepted';
import { oracleDifferences, type OracleDifference } from '../../../oracle/compare';
import type { OracleDump } from '../../../oracle/dump';
import { DUMPS, zoneDumpFiles } from '../../../oracle/paths';
import { oraclePlan } from '../../../oracle/plan';
import { OvsdbClient } from '../../../provider/ovsdb/client';
import { auditCluster, buildTopology, type ZoneAudit } from '../../../provider/runtime/cli';
import { loadOracleDump } from '../../support/oracleDump';
import { startOvsdbServer, type OvsdbServer } from '../../support/ovsdbServer';

// Upstream writes a newer schema than bookworm's 7.0.0 (ACL tiers, among others): the dumps go
// into trixie's OVN_Northbound 7.11.0, whose root exists once a `--ovn trixie` lab was built here.
const schema = join(trixieRoot(), 'usr', 'share', 'ovn', 'ovn-nb.ovsschema');

const dumps = zoneDumpFiles();

const accepted = readAccepted();
const readDump = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as OracleDump;

// The audit expects our plan and finds upstream's rows (oracleDifferences(..., 'expected')); both
// sides key rows by the same module (provider/nb/naturalKeys.ts), so the oracle's accepted list
// applies as it is.
const words = (d: OracleDifference) => `${d.kind} ${d.table} ${d.key}${d.column ? ` .${d.column}` : ''}`;

describe.runIf(existsSync(schema))("ovnk audit of upstream's own Northbound (the oracle's dumps)", () => {
  let server: OvsdbServer | undefined;

  afterAll(async () => {
    await server?.stop();
  });

  it('has dumps to audit', () => {
    expect(dumps.length).toBeGreaterThan(0);
  });

  /** The audit of `dump` loaded into a fresh database, against its source file as the oracle planned it. */
  async function auditDump(dump: OracleDump): Promise<ZoneAudit> {
    const planned = oraclePlan(readFileSync(dump.source, 'utf8'));
    if (typeof planned === 'string') throw new Error(`${dump.source}: ${planned}`);
    const built = buildTopology(planned.documents);
    if (!built.ok) throw new Error(`${dump.source}: ${built.problems.map((p) => p.message).join('; ')}`);
    await server?.stop();
    server = await startOvsdbServer({ schema });
    const db = await OvsdbClient.connect(server.unix);
    try {
      expect(await loadOracleDump(db, dump)).toBeGreaterThan(10);
      const [zone] = (await auditCluster(built.cluster, [{ name: dump.zone, db }], { zone: dump.zone })).zones;
      if (!zone!.ok) throw zone!.cause;
      expect(zone!.value.read).toBeGreaterThan(10);
      expect(zone!.value.notes, 'plan columns left out for the 7.11.0 server').toEqual([]);
      return zone!.value;
    } finally {
      db.close();
    }
  }

  for (const file of dumps) {
    const dump = readDump(file);
    it(`agrees with upstream's rows of ${dump.source} in zone ${dump.zone}, but for accepted differences`, async () => {
      const audit = await auditDump(dump);
      const unexplained = oracleDifferences(audit.comparison, 'expected')
        .filter((d) => !explains(accepted, d, dump.source))
        .map(words);
      expect(unexplained).toEqual([]);
    });
  }

  it("reports a NAT whose external address was changed in upstream's rows, and nothing else unexplained", async () => {
    const dump = readDump(join(DUMPS, 'stacks__layer3-pair', 'ovn-worker.json'));
    const nat = dump.tables.NAT!.find((r) => r.columns.type === 'snat')!;
    const ours = nat.columns.external_ip;
    nat.columns.external_ip = '192.0.2.99';
    const audit = await auditDump(dump);
    const unexplained = oracleDifferences(audit.comparison, 'expected').filter(
      (d) => !explains(accepted, d, dump.source),
    );
    expect(unexplained).toEqual([
      { table: 'NAT', key: expect.any(String), kind: 'column', column: 'external_ip', upstream: '192.0.2.99', ours },
    ]);
    expect(audit.comparison.differing[0]!.columns[0]).toMatchObject({ found: '192.0.2.99' });
  });
});
