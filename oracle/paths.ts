/**
 * Where the oracle's results go: a topology file's zone dumps under test/oracle/<path with / as
 * __, no extension>/<zone>.json, its cluster manager's annotations under
 * test/oracle/cluster-manager/<the same name>.json; the oracle's own cases in test/oracle/cases/.
 */
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

export const DUMPS = 'test/oracle';
export const CLUSTER_MANAGER_DUMPS = path.join(DUMPS, 'cluster-manager');
const NOT_ZONE_DUMPS = new Set(['cases', 'cluster-manager']);

const dumpName = (file: string) =>
  path
    .relative(process.cwd(), path.resolve(file))
    .replace(/\.(ya?ml|json)$/, '')
    .split(path.sep)
    .join('__');

export function dumpDirectory(file: string): string {
  return path.join(DUMPS, dumpName(file));
}

export function clusterManagerDumpFile(file: string): string {
  return path.join(CLUSTER_MANAGER_DUMPS, `${dumpName(file)}.json`);
}

/** Every committed zone dump, sorted. */
export function zoneDumpFiles(): string[] {
  if (!existsSync(DUMPS)) return [];
  return readdirSync(DUMPS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !NOT_ZONE_DUMPS.has(d.name))
    .flatMap((d) =>
      readdirSync(path.join(DUMPS, d.name))
        .filter((f) => f.endsWith('.json'))
        .map((f) => path.join(DUMPS, d.name, f)),
    )
    .sort();
}

/** Every committed cluster-manager result, sorted. */
export function clusterManagerDumpFiles(): string[] {
  if (!existsSync(CLUSTER_MANAGER_DUMPS)) return [];
  return readdirSync(CLUSTER_MANAGER_DUMPS)
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join(CLUSTER_MANAGER_DUMPS, f))
    .sort();
}
