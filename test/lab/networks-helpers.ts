/**
 * Helpers of the networks packet tests: the `ovnk` CLI as a child process, ovn-nbctl of the lab's
 * OVN and pings with retries (the lab's, re-exported for these tests), and the rows carrying an
 * owner's marker.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { nbctl, pingWithRetries, readState, syncChassis, type LabStatus } from '../../lab';
import { nbSchema } from '../../provider/nb/generated/nb';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { closeConnections } from '../../provider/runtime/cli';

export { nbctl, syncChassis };

export const cliPath = path.resolve(__dirname, '../../dist/cli/main.js');
export const fixture = (name: string): string => path.resolve(__dirname, '../fixtures', name);

export function ovnk(...args: string[]): { status: number; stdout: string; stderr: string; json: any } {
  const run = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' });
  let json: unknown;
  try {
    json = JSON.parse(run.stdout);
  } catch {
    json = undefined;
  }
  return { status: run.status ?? -1, stdout: run.stdout, stderr: run.stderr, json };
}

export function podNetns(lab: LabStatus, namespace: string, name: string): string {
  const pod = readState(lab.name)?.pods.find((p) => p.namespace === namespace && p.name === name);
  if (!pod) throw new Error(`pod ${namespace}/${name} is not plugged in lab ${lab.name}`);
  return pod.netns;
}

/**
 * True as soon as one ping answers (first packets may be lost while tunnels and DAD settle): `tries`
 * attempts, and more while the lab's OVN still works through a change (lab/settle.ts).
 */
export const reaches = (netns: string, address: string, tries = 8): Promise<boolean> =>
  pingWithRetries(netns, address, { tries, pauseMs: 300, whileLabWorks: true });

export function neighbourMac(netns: string, address: string): string | undefined {
  const out = execFileSync('ip', ['netns', 'exec', netns, 'ip', 'neigh', 'show', address], { encoding: 'utf8' });
  return /lladdr ([0-9a-f:]{17})/.exec(out)?.[1];
}

/** `Table` -> count of rows carrying `ovnk.io/owner=<owner>`, for every table that has external_ids. */
export async function ownedRowCounts(lab: LabStatus, owner: string): Promise<Record<string, number>> {
  const client = await OvsdbClient.connect(lab.nb!);
  try {
    const tables = Object.keys(nbSchema.tables).filter((t) => nbSchema.tables[t]!.columns.external_ids !== undefined);
    const server = await client.getSchema('OVN_Northbound');
    const present = tables.filter((t) => server.tables[t]?.columns.external_ids !== undefined);
    const ops = present.map((table) => ({
      op: 'select' as const,
      table,
      where: [['external_ids', 'includes', ['map', [['ovnk.io/owner', owner]]]]] as any,
      columns: ['_uuid'],
    }));
    const results = await client.transact('OVN_Northbound', ops);
    const counts: Record<string, number> = {};
    present.forEach((t, i) => {
      const n = results[i]!.rows?.length ?? 0;
      if (n > 0) counts[t] = n;
    });
    return counts;
  } finally {
    client.close();
  }
}

export async function pods(lab: LabStatus): Promise<{ namespace: string; name: string; addresses: string[] }[]> {
  return (readState(lab.name)?.pods ?? []) as any;
}

/** The bare addresses of a plugged pod, IPv4 first. */
export function podIPs(lab: LabStatus, namespace: string, name: string): string[] {
  const pod = readState(lab.name)?.pods.find((p) => p.namespace === namespace && p.name === name);
  return ((pod?.addresses as string[] | undefined) ?? []).map((a) => a.split('/')[0]!);
}

/**
 * Apply `file` to the lab before the file's tests (waiting for the chassis to catch up) and
 * destroy it after them; `cleanup` then removes what the tests made by hand.
 */
export function appliedForTheseTests(lab: LabStatus, file: string, cleanup: () => void = () => {}): void {
  beforeAll(() => {
    const applied = ovnk('apply', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(applied.status, applied.stderr).toBe(0);
    syncChassis(lab);
  });
  afterAll(async () => {
    await closeConnections();
    ovnk('destroy', '-f', file, '--lab', lab.name);
    cleanup();
  });
}
