/**
 * Golden conformance: each data file (data/*.yaml) holds the expected Northbound state of one
 * upstream unit test (file, test and helpers named in it), the same inputs as an Inventory and
 * objects, and what the comparison leaves out, each with its reason: `notCovered` (upstream rows
 * of features we do not render, counted but not compared), `divergences` (expected rows we do not
 * match, and why) and `ours` (rows of our zone the test leaves to another controller). The test
 * fails on any other difference, and prints how many upstream expectations were ported, covered
 * and matched. A test that asserts only some columns of some rows (`mode: subset`) is compared on
 * those, on the rows it asserts do not exist (`absent`) and on the rows it counts (`counts`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { inlineParents } from '../../../provider/nb/parents';
import { planTopology } from '../../../provider/runtime/plan';
import { compareRows, compareSubset, type ExpectedCount, type ExpectedRow, rehashPortGroup, rename } from './compare';

interface Listed {
  table: string;
  row: string;
  reason: string;
}

interface GoldenFile {
  upstream: { file: string; test: string; helpers?: string[] };
  networks: Record<string, string>;
  /** Other names renamed in the expected rows (a test's pod name Kubernetes would refuse). */
  renames?: Record<string, string>;
  zone: string;
  input: string;
  notCovered?: { table: string; rows: number; reason: string }[];
  divergences?: Listed[];
  ours?: Listed[];
  /** `subset`: the test asserts some columns of some rows and that the `absent` ones do not exist. */
  mode?: 'whole' | 'subset';
  expected: Record<string, ExpectedRow[]>;
  absent?: Record<string, ExpectedRow[]>;
  /** `subset`: how many rows hold some columns, as the test counts them (assert.Len, verify...Count). */
  counts?: ExpectedCount[];
}

const dir = join(__dirname, 'data');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const totals = { ported: 0, covered: 0, matched: 0 };

/** The expected rows renamed to ours, and each renamed Port_Group name by upstream's name. */
function expectedRows(golden: GoldenFile): { rows: Record<string, ExpectedRow[]>; hashed: Map<string, string> } {
  const rows: Record<string, ExpectedRow[]> = {};
  const hashed = new Map<string, string>();
  for (const [table, list] of Object.entries(golden.expected)) {
    rows[table] = list.map((row) => {
      const renamed = rename(row, { networks: golden.networks, names: golden.renames }) as ExpectedRow;
      if (table !== 'Port_Group') return renamed;
      const rehashed = rehashPortGroup(row, renamed);
      hashed.set(String(row.name), String(rehashed.name));
      return rehashed;
    });
  }
  return { rows, hashed };
}

/** One row of a data file with upstream's names renamed to ours. */
const renamed = (golden: GoldenFile, row: ExpectedRow): ExpectedRow =>
  rename(row, { networks: golden.networks, names: golden.renames }) as ExpectedRow;

describe('golden conformance with upstream ovn-kubernetes unit tests', () => {
  afterAll(() => {
    console.log(
      `golden conformance: ${totals.ported} upstream expectations (rows and counts) ported from ${files.length} tests, ${totals.covered} covered, ${totals.matched} matched`,
    );
  });

  for (const file of files) {
    const golden = parse(readFileSync(join(dir, file), 'utf8')) as GoldenFile;
    it(`renders the zone as ${golden.upstream.file} "${golden.upstream.test}" expects (${file})`, () => {
      const result = planTopology(golden.input);
      if (!result.ok) throw new Error(`${file}: input unusable: ${JSON.stringify(result.problems)}`);
      expect(result.plan.problems).toEqual([]);
      const zone = result.plan.zones.find((z) => z.name === golden.zone);
      expect(zone, `zone ${golden.zone}`).toBeDefined();
      const expected = expectedRows(golden);
      const rows = inlineParents(zone!.rows);
      const outcome =
        golden.mode === 'subset'
          ? compareSubset(
              expected.rows,
              expectedRows({ ...golden, expected: golden.absent ?? {} }).rows,
              rows,
              (golden.counts ?? []).map((c) => ({ ...c, where: renamed(golden, c.where) })),
            )
          : compareRows(expected.rows, rows);
      const covered = outcome.matched.length + outcome.mismatched.length;
      const notCovered = (golden.notCovered ?? []).reduce((n, c) => n + c.rows, 0);
      totals.ported += covered + notCovered;
      totals.covered += covered;
      totals.matched += outcome.matched.length;
      console.log(
        `${file}: ${covered + notCovered} expectations, ${covered} covered, ${outcome.matched.length} matched`,
      );
      const label = (l: Listed) =>
        `${l.table} ${expected.hashed.get(l.row) ?? (rename(l.row, { networks: golden.networks, names: golden.renames }) as string)}`;
      expect(outcome.mismatched.map((m) => m.row).sort(), JSON.stringify(outcome.mismatched, null, 1)).toEqual(
        (golden.divergences ?? []).map(label).sort(),
      );
      expect(outcome.extra.sort()).toEqual((golden.ours ?? []).map(label).sort());
    });
  }
});
