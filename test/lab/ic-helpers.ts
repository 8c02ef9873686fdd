/**
 * Shared setup of the per-node (interconnect) lab tests: a trixie lab of its own whose nodes are
 * each a zone with its own Northbound, Southbound and northd (lab/ic/zones.ts), and a fixture
 * rewritten into the per-node layout with one target per zone. Registers its own beforeAll and
 * afterAll; the returned object is filled in by beforeAll.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { down, readState, up } from '../../lab';
import { startInterconnect, type InterconnectZone } from '../../lab/ic/zones';
import { fixture, podIPs, podNetns } from './networks-helpers';

export interface InterconnectLab {
  name: string;
  /** The per-node copy of the fixture. */
  file: string;
  zones: InterconnectZone[];
  netnsOf(namespace: string, pod: string): string;
  ipsOf(namespace: string, pod: string): string[];
  /** Runs a trixie OVN tool (`ovn-sbctl`, `ovn-nbctl`) of the lab's root against `db`. */
  ovn(tool: string, db: string, ...args: string[]): string;
}

/** The fixture's text in the per-node layout, its owner renamed, one target per zone. */
function perNodeText(fixtureName: string, owner: [string, string], zones: InterconnectZone[]): string {
  const targets = zones.map((z) => `      ${z.name}: {nb: "${z.nb}"}`).join('\n');
  return readFileSync(fixture(fixtureName), 'utf8')
    .replace(`name: ${owner[0]}`, `name: ${owner[1]}`)
    .replace(
      '  ipFamilies: [IPv4, IPv6]',
      `  ipFamilies: [IPv4, IPv6]\n  zones: per-node\n  targets:\n    zones:\n${targets}`,
    );
}

/** A per-node lab of three nodes for the calling test file; `owner` renames the fixture's owner. */
export function useInterconnectLab(prefix: string, fixtureName: string, owner: [string, string]): InterconnectLab {
  const name = `${prefix}-${process.pid % 100000}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), `ovnk-${prefix}-`));
  const lab: InterconnectLab = {
    name,
    file: path.join(dir, 'per-node.yaml'),
    zones: [],
    netnsOf: (ns, pod) => podNetns({ name } as never, ns, pod),
    ipsOf: (ns, pod) => podIPs({ name } as never, ns, pod),
    ovn: (tool, db, ...args) =>
      execFileSync('chroot', [readState(name)!.ovnRoot!, tool, `--db=${db}`, ...args], { encoding: 'utf8' }),
  };
  beforeAll(async () => {
    await up({ name, nodes: 3, ovn: 'trixie' });
    lab.zones = await startInterconnect(name);
    writeFileSync(lab.file, perNodeText(fixtureName, owner, lab.zones));
  }, 180_000);
  afterAll(async () => {
    await down(name);
    rmSync(dir, { recursive: true, force: true });
  });
  return lab;
}
