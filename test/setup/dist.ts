/**
 * Vitest global setup of both lanes: the tests that run the built `ovnk` or the Pulumi host run
 * dist/, as an installed package would. When dist/ is older than its sources (a bare
 * `npx vitest run FILE` after an edit), build it once here, before any file runs, instead of
 * failing each file that needs it. vitest.config.ts records when the run started, so that a
 * source edited while the run goes on does not fail the files after it (test/support/dist.ts):
 * the run tests the sources it started with.
 */
import { execFile } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BUILT_DIRS, repoRoot, staleSources } from '../support/dist';

export default async function setup(): Promise<void> {
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
