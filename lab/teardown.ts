/**
 * Removing a lab: processes in its namespaces (pods included), its daemons by pid, its
 * namespaces and root-namespace links, its index claim and its directory. Every step tolerates
 * parts that are already gone, so `down` is safe after a failed or partial `up`.
 */
import { exec } from './exec';
import { namespacePrefix } from './layout';
import { stopDaemons } from './processes';
import { type LabState, releaseIndex, removeLabDir } from './state';
import { releaseOvnRoot } from './trixie';

export async function labNamespaces(index: number): Promise<string[]> {
  const listed = await exec(['ip', 'netns', 'list']);
  const prefix = namespacePrefix(index);
  return listed.stdout
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .filter((ns) => ns.startsWith(prefix));
}

/** Processes left inside the lab's namespaces (pod workloads) are the lab's: stop them. */
async function killNamespaceProcesses(namespaces: string[]): Promise<void> {
  const pids = await Promise.all(namespaces.map((ns) => exec(['ip', 'netns', 'pids', ns], { okCodes: [1, 255] })));
  for (const pid of pids
    .flatMap((r) => r.stdout.split(/\s+/))
    .filter(Boolean)
    .map(Number)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

async function removeNamespaces(namespaces: string[]): Promise<void> {
  await Promise.all(namespaces.map((ns) => exec(['ip', 'netns', 'del', ns], { okCodes: [1, 255] })));
}

async function removeRootLinks(links: string[]): Promise<void> {
  await Promise.all(links.map((link) => exec(['ip', 'link', 'del', link], { okCodes: [1, 2, 255] })));
}

export async function teardown(state: LabState): Promise<void> {
  await stopDaemons(state.daemons);
  const found = await labNamespaces(state.index);
  const podNamespaces = state.pods.map((p) => p.netns);
  const all = [...new Set([...podNamespaces, ...found, ...state.namespaces])];
  const nodesAndFabric = new Set(state.namespaces);
  // everything still running in the lab's namespaces is the lab's (pod workloads, ssh sessions)
  await killNamespaceProcesses(all);
  await removeNamespaces(all.filter((ns) => !nodesAndFabric.has(ns)));
  await removeNamespaces(state.namespaces);
  await removeRootLinks(state.rootLinks);
  if (state.ovnRoot) await releaseOvnRoot(state.ovnRoot, state.name);
  releaseIndex(state.index);
  removeLabDir(state.name);
}
