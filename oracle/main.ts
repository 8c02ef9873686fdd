/**
 * `npm run oracle -- --upstream DIR [FILES...]`: each topology file, each zone, through upstream's
 * own controllers (oracle/harness), upstream's rows written under test/oracle/<file>/<zone>.json.
 * With no files: every file of stacks/ and test/fixtures/ (and test/oracle/cases/). Files our
 * planner refuses are reported and skipped. Runs by hand (it needs root and Go); the comparison of
 * the committed dumps is test/unit/oracle/dumps.test.ts. After a file's zones, upstream's cluster
 * manager runs on it (clusterManager.ts; `--cluster-manager`: only that). `--random N --seed S`
 * fuzzes instead (fuzz.ts).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { clusterManagerInput, ourAnnotations, type ClusterManagerDump } from './clusterManager';
import { dumpText, oracleDump } from './dump';
import { fuzz } from './fuzz';
import { harnessInput } from './input';
import { CLUSTER_MANAGER_DUMPS, clusterManagerDumpFile, dumpDirectory } from './paths';
import { oraclePlan, type OraclePlan } from './plan';
import { ensureBinary, HARNESS, runHarness, upstreamCommit } from './upstream';

const UPSTREAM_REPOSITORY = 'https://github.com/ovn-kubernetes/ovn-kubernetes';
const DEFAULT_SOURCES = ['stacks', 'test/fixtures', 'test/oracle/cases'];

interface Args {
  upstream: string;
  files: string[];
  random?: number;
  seed: number;
  /** Only the cluster manager's annotations, not the zones' Northbounds. */
  clusterManagerOnly: boolean;
}

function args(argv: string[]): Args {
  const out: Args = { upstream: '', files: [], seed: Date.now() % 2 ** 31, clusterManagerOnly: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--upstream') out.upstream = argv[++i] ?? '';
    else if (argv[i] === '--random') out.random = Number(argv[++i]);
    else if (argv[i] === '--seed') out.seed = Number(argv[++i]);
    else if (argv[i] === '--cluster-manager') out.clusterManagerOnly = true;
    else if (argv[i] !== '--') out.files.push(argv[i]!);
  }
  if (!out.upstream) throw new Error('--upstream DIR: an ovn-kubernetes work tree is required');
  if (out.random !== undefined && !(out.random > 0)) throw new Error('--random N: N must be a positive number');
  return out;
}

function defaultFiles(): string[] {
  return DEFAULT_SOURCES.flatMap((dir) => {
    try {
      return readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f) && !f.startsWith('Pulumi.'))
        .map((f) => path.join(dir, f));
    } catch {
      return [];
    }
  }).sort();
}

function oracleFile(file: string, upstream: string, commit: string, clusterManagerOnly: boolean): void {
  const planned = oraclePlan(readFileSync(file, 'utf8'));
  if (typeof planned === 'string') {
    console.log(`${file}: skipped, our planner refuses it: ${planned.slice(0, 300)}`);
    return;
  }
  if (clusterManagerOnly) return clusterManagerFile(file, planned, upstream, commit);
  const dir = dumpDirectory(file);
  mkdirSync(dir, { recursive: true });
  const networks = planned.plan.cluster.networks.map((n) => n.name);
  for (const zone of planned.plan.zones) {
    const output = runHarness(upstream, harnessInput(planned.plan, planned.documents, zone.name));
    if (typeof output === 'string') {
      console.log(`${file} ${zone.name}: ${output}`);
      continue;
    }
    const about = {
      source: file,
      upstream: { repository: UPSTREAM_REPOSITORY, commit, harness: HARNESS },
      settings: harnessInput(planned.plan, planned.documents, zone.name).settings,
    };
    const dump = oracleDump(output, about, networks);
    writeFileSync(path.join(dir, `${zone.name}.json`), dumpText(dump));
    const rows = Object.values(dump.tables).reduce((n, t) => n + t.length, 0);
    const errors = dump.errors.length > 0 ? `, errors: ${dump.errors.join(' | ').slice(0, 300)}` : '';
    console.log(`${file} ${zone.name}: ${rows} rows in ${output.millis} ms${errors}`);
  }
  clusterManagerFile(file, planned, upstream, commit);
}

/** Upstream's cluster manager on the file's objects: its annotations under test/oracle/cluster-manager/. */
function clusterManagerFile(file: string, planned: OraclePlan, upstream: string, commit: string): void {
  const input = clusterManagerInput(planned.plan, planned.documents);
  const output = runHarness(upstream, input);
  if (typeof output === 'string' || !output.annotations) {
    console.log(`${file} cluster manager: ${typeof output === 'string' ? output : output.errors.join(' | ')}`);
    return;
  }
  const dump: ClusterManagerDump = {
    source: file,
    upstream: { repository: UPSTREAM_REPOSITORY, commit, harness: HARNESS },
    settings: input.settings,
    errors: output.errors,
    controllerErrors: (output.controllerErrors ?? []).map((e) => e.slice(0, 500)),
    annotations: ourAnnotations(planned.plan, output.annotations),
  };
  mkdirSync(CLUSTER_MANAGER_DUMPS, { recursive: true });
  writeFileSync(clusterManagerDumpFile(file), `${JSON.stringify(dump, null, 1)}\n`);
  console.log(`${file} cluster manager: ${Object.keys(dump.annotations.nodes).length} nodes in ${output.millis} ms`);
}

function main(): void {
  const { upstream, files, random, seed, clusterManagerOnly } = args(process.argv.slice(2));
  ensureBinary(upstream, console.log);
  const commit = upstreamCommit(upstream);
  if (random !== undefined) {
    const tally = fuzz(upstream, commit, random, seed);
    console.log(`seed ${seed}: ${JSON.stringify(tally)}`);
    return;
  }
  for (const file of files.length > 0 ? files : defaultFiles()) oracleFile(file, upstream, commit, clusterManagerOnly);
}

main();
