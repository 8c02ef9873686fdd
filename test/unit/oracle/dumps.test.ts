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
import { explains, readAccepted } from '../../../oracle/accepted';
import {
  compareWithUpstream,
  describeDifference,
  plannedNatural,
  upstreamNatural,
  type OracleDifference,
} from '../../../oracle/compare';
import type { OracleDump } from '../../../oracle/dump';
import { oraclePlan } from '../../../oracle/plan';
import { zoneDumpFiles } from '../../../oracle/paths';

const dumps = zoneDumpFiles();

const accepted = readAccepted();
const used = new Set<number>();

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
      const unexplained: string[] = [];
      for (const d of differences(dump)) {
        const entry = explains(accepted, d, dump.source);
        if (entry) used.add(accepted.indexOf(entry));
        else unexplained.push(describeDifference(d));
      }
      expect(unexplained).toEqual([]);
    });
  }

  it('lists no accepted difference that explains nothing', () => {
    const idle = accepted.filter((_, i) => !used.has(i)).map((a) => `${a.table} ${a.key}: ${a.reason}`);
    expect(idle).toEqual([]);
  });
});
