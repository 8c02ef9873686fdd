/**
 * The compiled package under test: the repository root, and a guard that refuses to test a dist/
 * older than its sources (tests that run the built `ovnk` or the Pulumi host run dist/, as an
 * installed package would). A vitest run builds a stale dist/ before its first file
 * (test/setup/dist.ts) and records when it started: sources edited after that are the next
 * run's, so they do not fail this one's files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The package root (this file also runs compiled from dist/test/support, for the benchmark). */
function packageRoot(dir: string): string {
  const manifest = join(dir, 'package.json');
  if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'ovnk-pulumi') return dir;
  if (dirname(dir) === dir) throw new Error('the ovnk-pulumi package root was not found above this file');
  return packageRoot(dirname(dir));
}

export const repoRoot = packageRoot(__dirname);

/** The source directories `npm run build` compiles that the tests run from dist/. */
export const BUILT_DIRS = ['cli', 'provider', 'lab', 'components', 'stacks'];

/** The environment variable holding when the vitest run started (ms since the epoch). */
export const RUN_STARTED = 'OVNK_TEST_RUN_STARTED';

/** Sources edited after the run started are not this run's (Infinity outside a vitest run). */
const runStarted = (): number => Number(process.env[RUN_STARTED] ?? Infinity);

/** Source files under `dir` (relative to the repo) whose compiled dist/ file is missing or older. */
export function staleSources(dir: string): string[] {
  const stale: string[] = [];
  for (const entry of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) stale.push(...staleSources(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      const compiled = join(repoRoot, 'dist', path.replace(/\.ts$/, '.js'));
      const edited = statSync(join(repoRoot, path)).mtimeMs;
      if (!existsSync(compiled) || (statSync(compiled).mtimeMs < edited && edited < runStarted())) stale.push(path);
    }
  }
  return stale;
}

/** Throws, naming the stale sources, when dist/ is older than the sources under `dirs`. */
export function requireFreshDist(dirs = ['provider', 'components', 'stacks']): void {
  const stale = dirs.flatMap(staleSources);
  if (stale.length === 0) return;
  const shown = stale.slice(0, 5).join(', ') + (stale.length > 5 ? ` and ${stale.length - 5} more` : '');
  throw new Error(
    `dist/ is stale or missing: ${shown} ${stale.length === 1 ? 'is' : 'are'} newer than the compiled dist/ (or not compiled): run \`npm run build\` (npm test builds first)`,
  );
}
