/**
 * `npm run generate` (second half): writes provider/model/crd/generated/ from the pinned upstream
 * CRDs in ../shared/schemas/crds/ (their schemas, then the validators compiled from them and
 * from our Inventory schema). The rendering is the model's (pure); this entry only reads and
 * writes, and is the only code that reads ../shared, at generation time.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generatedCrdFiles, type PinnedCrd } from '../../model/crd/generate/sources';
import { findRepoRoot } from '../../nb/generate/sources';

/** The pinned CRDs and the shared README beside a checkout. */
export function readPinned(root: string): { pinned: PinnedCrd[]; readme: string } {
  const dir = join(root, '..', 'shared', 'schemas', 'crds');
  const pinned = readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
  return { pinned, readme: readFileSync(join(root, '..', 'shared', 'schemas', 'README.md'), 'utf8') };
}

function main(): void {
  const root = findRepoRoot(__dirname);
  const { pinned, readme } = readPinned(root);
  for (const file of generatedCrdFiles(pinned, readme)) {
    mkdirSync(dirname(join(root, file.output)), { recursive: true });
    writeFileSync(join(root, file.output), file.render());
    process.stdout.write(`wrote ${file.output}\n`);
  }
}

if (require.main === module) main();
