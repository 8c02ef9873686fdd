/**
 * The oracle's CI part (no Go): for every dump upstream's own controllers wrote (test/oracle/,
 * made by `npm run oracle`, oracle/harness/ovnk_oracle_test.go), `ovnk plan`'s rows for the same
 * file and zone equal upstream's, table by table under natural keys (oracle/compare.ts: provider/nb/naturalKeys.ts and
 * rowComparison.ts, the comparison `ovnk audit` uses);
 * the only differences allowed are those test/oracle/accepted.yaml lists with a reason.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AcceptedDifferences, readAccepted } from '../../../oracle/accepted';
import { compareWithUpstream, plannedNatural, upstreamNatural, type OracleDifference } from '../../../oracle/compare';
import type { OracleDump } from '../../../oracle/dump';
import { zoneDumpFiles } from '../../../oracle/paths';
import { oraclePlan } from '../../../oracle/plan';

const dumps = zoneDumpFiles();

const accepted = new AcceptedDifferences(readAccepted());

function differences(dump: OracleDump): OracleDifference[] {
  const planned = oraclePlan(readFileSync(dump.source, 'utf8'));
  if (typeof planned === 'string') throw new Error(`${dump.source}: ${planned}`);
  const zone = planned.plan.zones.find((z) => z.name === dump.zone);
  if (!zone) throw new Error(`${dump.source}: our plan has no zone ${dump.zone}`);
  return compareWithUpstream(upstreamNatural(dump.tables), plannedNatural(zone.rows));
}

describe('upstream controllers as the oracle', () => {
  it('has dumps to compare', () => {
    expect(dumps.length).toBeGreaterThan(0);
  });

  for (const file of dumps) {
    const dump = JSON.parse(readFileSync(file, 'utf8')) as OracleDump;
    it(`our plan of ${dump.source} for zone ${dump.zone} equals upstream's rows (${path.basename(path.dirname(file))})`, () => {
      expect(dump.errors, 'the harness recorded errors: the dump is not upstream steady state').toEqual([]);
      expect(accepted.unexplained(differences(dump), dump.source)).toEqual([]);
    });
  }

  it('lists no accepted difference that explains nothing', () => {
    expect(accepted.idle()).toEqual([]);
  });
});
