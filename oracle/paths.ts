/** Where the dump of a topology file goes: test/oracle/<path with / as __, no extension>/. */
import * as path from 'node:path';

export const DUMPS = 'test/oracle';

export function dumpDirectory(file: string): string {
  const relative = path.relative(process.cwd(), path.resolve(file)).replace(/\.(ya?ml|json)$/, '');
  return path.join(DUMPS, relative.split(path.sep).join('__'));
}
