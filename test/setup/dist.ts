/**
 * Vitest global setup of every lane: the tests that run the built `ovnk` or the Pulumi host run
 * dist/, as an installed package would. When dist/ is older than its sources (a bare
 * `npx vitest run FILE` after an edit), build it once here, before any file runs, instead of
 * failing each file that needs it. vitest.config.ts records when the run started, so that a
 * source edited while the run goes on does not fail the files after it (test/support/dist.ts):
 * the run tests the sources it started with. scripts/test.sh runs two vitest processes: the build
 * holds a lock (the builder's pid in dist.lock), so the second waits for the first's build instead
 * of rewriting the files the first one's tests read.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { isRunning } from '../../lab/processes';
import { BUILT_DIRS, repoRoot, staleSources } from '../support/dist';

const LOCK = join(repoRoot, 'dist.lock');

/** The pid in the lock (0 if it just went away). */
function holderOf(): number {
  try {
    return Number(readFileSync(join(LOCK, 'pid'), 'utf8')) || 0;
  } catch {
    return 0;
  }
}

/**
 * Holds the build lock while `body` runs; waits while another live process holds it (its build
 * takes what it takes), and takes over the lock of a process that died. The lock is a directory
 * with the holder's pid, renamed into place whole, so it never exists without its pid.
 */
async function withBuildLock(body: () => Promise<void>): Promise<void> {
  const mine = `${LOCK}.${process.pid}`;
  mkdirSync(mine, { recursive: true });
  writeFileSync(join(mine, 'pid'), String(process.pid));
  for (;;) {
    try {
      renameSync(mine, LOCK);
      break;
    } catch (error) {
      if (!['EEXIST', 'ENOTEMPTY'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
      const holder = holderOf();
      if (holder > 0 && !isRunning(holder)) rmSync(LOCK, { recursive: true, force: true });
      else await sleep(200);
    }
  }
  try {
    await body();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

async function build(): Promise<void> {
  const stale = BUILT_DIRS.flatMap(staleSources);
  if (stale.length === 0) return;
  process.stderr.write(`dist/ is older than ${stale.length} source file(s) (${stale[0]}, ...): building it\n`);
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  await promisify(execFile)(process.execPath, [tsc, '-p', join(repoRoot, 'tsconfig.json')], { cwd: repoRoot }).catch(
    (error: { stdout?: string }) => {
      throw new Error(`building dist/ failed (npm run build):\n${error.stdout ?? String(error)}`);
    },
  );
  chmodSync(join(repoRoot, 'dist', 'cli', 'main.js'), 0o755);
}

export default async function setup(): Promise<void> {
  if (BUILT_DIRS.flatMap(staleSources).length === 0) return;
  await withBuildLock(build);
}
