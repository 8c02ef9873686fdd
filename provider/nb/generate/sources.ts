/**
 * Which schema generates which file. Shared by the generator entry (main.ts) and the drift test,
 * so both render exactly the same thing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { DatabaseSchema } from '../../ovsdb/schema';
import { renderDatabase } from './render';

export interface GeneratedFile {
  /** Absolute path of the pinned schema. */
  schemaPath: string;
  /** Output path relative to the repository root. */
  output: string;
  render(schema: DatabaseSchema): string;
}

/** The repository root: the nearest directory above `from` whose package.json is ovnk-pulumi. */
export function findRepoRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'ovnk-pulumi') return dir;
    if (dirname(dir) === dir) throw new Error(`nb: no ovnk-pulumi package.json above ${from}`);
  }
}

function entry(root: string, schemaFile: string, output: string, constName: string): GeneratedFile {
  const source = `../shared/schemas/${schemaFile}`;
  return {
    schemaPath: join(root, '..', 'shared', 'schemas', schemaFile),
    output,
    render: (schema) => renderDatabase(schema, constName, source),
  };
}

export function generatedFiles(root: string): GeneratedFile[] {
  return [
    entry(root, 'ovn-nb.v26.03.2.ovsschema', 'provider/nb/generated/nb.ts', 'nbSchema'),
    entry(root, 'vswitch.v3.1.0-debian.ovsschema', 'provider/nb/generated/vswitch.ts', 'vswitchSchema'),
  ];
}
