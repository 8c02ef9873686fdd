/**
 * Upstream's side: the harness (oracle/harness/*_test.go) copied into an upstream work tree, its
 * pkg/ovn test binary built (once per harness and upstream commit; oracle/root.sh keeps the Go root
 * and the build cache in $OVNK_ORACLE_CACHE, default /var/cache/ovnk-oracle) and run on one harness
 * input.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { HarnessOutput } from './dump';
import type { HarnessInput } from './input';

export const HARNESS = 'oracle/harness/ovnk_oracle_test.go';
const ROOT_SH = 'oracle/root.sh';

const cacheDir = () => process.env.OVNK_ORACLE_CACHE ?? '/var/cache/ovnk-oracle';
const binary = () => path.join(cacheDir(), 'trixie-go', 'gocache', 'ovn.test');
const stampFile = () => path.join(cacheDir(), 'ovn.test.stamp');

export function upstreamCommit(upstream: string): string {
  return execFileSync('git', ['-C', upstream, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
}

/** The harness's Go files (oracle/harness/*.go), all copied into upstream's pkg/ovn. */
const harnessFiles = () =>
  readdirSync(path.dirname(HARNESS))
    .filter((f) => f.endsWith('_test.go'))
    .sort()
    .map((f) => path.join(path.dirname(HARNESS), f));

/** Build the test binary unless the one in the cache came from this harness and commit. */
export function ensureBinary(upstream: string, log: (line: string) => void): void {
  const pkg = path.join(upstream, 'go-controller', 'pkg', 'ovn');
  if (!existsSync(pkg)) throw new Error(`--upstream ${upstream}: no go-controller/pkg/ovn in it`);
  const hash = createHash('sha256');
  for (const file of harnessFiles()) hash.update(file).update(readFileSync(file));
  const stamp = `${upstreamCommit(upstream)} ${hash.digest('hex')}`;
  if (existsSync(binary()) && existsSync(stampFile()) && readFileSync(stampFile(), 'utf8') === stamp) return;
  for (const file of harnessFiles()) copyFileSync(file, path.join(pkg, path.basename(file)));
  log(`building upstream's pkg/ovn test binary (cold: 12-14 minutes on 2 cores; after a harness edit 1-3)`);
  const built = spawnSync('sh', [ROOT_SH, 'build', upstream], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`building the harness failed (exit ${built.status})`);
  writeFileSync(stampFile(), stamp);
}

/** Run the harness on one input; its output, or why not. */
export function runHarness(upstream: string, input: HarnessInput): HarnessOutput | string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ovnk-oracle-'));
  try {
    const inFile = path.join(dir, 'in.json');
    const outFile = path.join(dir, 'out.json');
    writeFileSync(inFile, JSON.stringify(input));
    const run = spawnSync('sh', [ROOT_SH, 'run', upstream, inFile, outFile], { encoding: 'utf8' });
    if (!existsSync(outFile))
      return `the harness wrote no dump (exit ${run.status}): ${run.error?.message ?? (run.stderr ?? '').slice(-600)}`;
    return JSON.parse(readFileSync(outFile, 'utf8')) as HarnessOutput;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
