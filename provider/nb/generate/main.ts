/**
 * `npm run generate`: writes provider/nb/generated/{nb,vswitch}.ts from the pinned schemas in
 * ../shared/schemas/. The only code that reads ../shared, and only at generation time.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot, generatedFiles } from './sources';

function main(): void {
  const root = findRepoRoot(__dirname);
  for (const file of generatedFiles(root)) {
    const text = file.render(JSON.parse(readFileSync(file.schemaPath, 'utf8')));
    writeFileSync(join(root, file.output), text);
    process.stdout.write(`wrote ${file.output}\n`);
  }
}

main();
