/**
 * `npm run oracle -- --upstream DIR --random N --seed S`: differential fuzzing. Topologies from
 * the fuzz suite's generator (test/fuzz/topologies.ts, seeded) until N that our planner accepts
 * (most it refuses on purpose: overlaps, bad prefixes) have run through upstream's controllers,
 * one zone each (the node of the first pod, else the first),
 * and every difference from our plan printed with the seed, the case and the file that reproduces
 * it (written under $OVNK_ORACLE_CACHE/fuzz/, outside the repository).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { randomTopology } from '../test/fuzz/topologies';
import { explains, readAccepted } from './accepted';
import { compareWithUpstream, describeDifference, plannedNatural, upstreamNatural } from './compare';
import { oracleDump } from './dump';
import { harnessInput } from './input';
import { oraclePlan } from './plan';
import { podAddressPermutation, renameAddresses } from './podOrder';
import { runHarness } from './upstream';

export interface FuzzTally {
  cases: number;
  refused: number;
  compared: number;
  equal: number;
  /** Equal once upstream's pod addresses, a permutation of ours, are renamed (podOrder.ts). */
  podOrder: number;
  differing: number;
  failed: number;
}

export function fuzz(upstream: string, commit: string, count: number, seed: number): FuzzTally {
  const dir = path.join(process.env.OVNK_ORACLE_CACHE ?? '/var/cache/ovnk-oracle', 'fuzz');
  mkdirSync(dir, { recursive: true });
  const accepted = readAccepted();
  const tally: FuzzTally = { cases: 0, refused: 0, compared: 0, equal: 0, podOrder: 0, differing: 0, failed: 0 };
  for (const [i, documents] of fc.sample(randomTopology, { numRuns: count * 50, seed }).entries()) {
    if (tally.compared + tally.failed >= count) break;
    fuzzCase(documents, i);
  }
  return tally;

  function fuzzCase(documents: object[], i: number): void {
    tally.cases++;
    const text = documents.map((d) => stringify(d)).join('---\n');
    const planned = oraclePlan(text);
    if (typeof planned === 'string') {
      tally.refused++;
      return;
    }
    const file = path.join(dir, `seed-${seed}-case-${i}.yaml`);
    writeFileSync(file, text);
    const pod = planned.plan.cluster.inventory.pods[0];
    const zone = planned.plan.zones.find((z) => z.name === pod?.node) ?? planned.plan.zones[0]!;
    const output = runHarness(upstream, harnessInput(planned.plan, planned.documents, zone.name));
    if (typeof output === 'string') {
      tally.failed++;
      console.log(`seed ${seed} case ${i} (${file}) zone ${zone.name}: ${output}`);
      return;
    }
    tally.compared++;
    const networks = planned.plan.cluster.networks.map((n) => n.name);
    const settings = harnessInput(planned.plan, planned.documents, zone.name).settings;
    const dump = oracleDump(
      output,
      { source: file, upstream: { repository: '', commit, harness: '' }, settings },
      networks,
    );
    const ours = plannedNatural(zone.rows);
    const unexplained = (tables: typeof dump.tables) =>
      compareWithUpstream(upstreamNatural(tables), ours).filter((d) => !explains(accepted, d, file));
    let differences = unexplained(dump.tables);
    if (differences.length === 0 && dump.errors.length === 0) {
      tally.equal++;
      return;
    }
    const permutation = podAddressPermutation(dump.tables, ours);
    if (permutation && dump.errors.length === 0) {
      differences = unexplained(renameAddresses(dump.tables, permutation));
      if (differences.length === 0) {
        tally.podOrder++;
        console.log(`seed ${seed} case ${i} (${file}) zone ${zone.name}: equal but for the pods' address order`);
        return;
      }
    }
    tally.differing++;
    writeFileSync(file.replace(/\.yaml$/, `.${zone.name}.json`), JSON.stringify(dump, null, 1));
    console.log(`seed ${seed} case ${i} (${file}) zone ${zone.name}: ${differences.length} differences`);
    for (const line of [...dump.errors, ...differences.map((d) => describeDifference(d))].slice(0, 40))
      console.log(`  ${line}`);
    for (const line of dump.controllerErrors.slice(0, 5)) console.log(`  upstream logged: ${line.slice(0, 300)}`);
  }
}
