/**
 * Shared setup of the per-node (interconnect) lab tests: a per-node trixie lab of its own whose
 * nodes are each a zone with its own Northbound, Southbound and northd (lab/zones.ts), and the
 * fixture with its owner renamed (`--lab` fills the per-node layout and one target per zone).
 * Registers its own beforeAll and afterAll; the returned object is filled in by beforeAll.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { down, type LabZoneStatus, nbctlWhileLabWorks, ovnTool, readState, up } from '../../lab';
import { labDir } from '../../lab/state';
import { northdComplaints } from './connect-helpers';
import { fixture, podIPs, podNetns } from './networks-helpers';

export interface InterconnectLab {
  name: string;
  /** The copy of the fixture (its owner renamed). */
  file: string;
  zones: LabZoneStatus[];
  netnsOf(namespace: string, pod: string): string;
  ipsOf(namespace: string, pod: string): string[];
  /** Runs a trixie OVN tool (`ovn-sbctl`, `ovn-nbctl`) of the lab's root against `db`. */
  ovn(tool: string, db: string, ...args: string[]): string;
  /** Each zone's northd warnings and errors but the upstream-faithful ones (connect-helpers.ts). */
  northdComplaints(): Record<string, string[]>;
  /** `ovn-nbctl --wait=<wait> sync` in every zone, for as long as the lab works (lab/settle.ts). */
  syncZones(wait: 'sb' | 'hv'): void;
}

/** The fixture's text with its owner renamed. */
function renamed(fixtureName: string, owner: [string, string]): string {
  return readFileSync(fixture(fixtureName), 'utf8').replace(`name: ${owner[0]}`, `name: ${owner[1]}`);
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
    ovn: (tool, db, ...args) => ovnTool(readState(name)!.ovnRoot!, tool, db, ...args),
    syncZones: (wait) => {
      for (const z of lab.zones)
        nbctlWhileLabWorks({ name, ovnRoot: readState(name)!.ovnRoot, nb: z.nb }, `--wait=${wait}`, 'sync');
    },
    northdComplaints: () =>
      Object.fromEntries(
        lab.zones.map((z) => [
          z.name,
          northdComplaints(readFileSync(path.join(labDir(name), 'zones', z.name, 'northd.log'), 'utf8')),
        ]),
      ),
  };
  beforeAll(async () => {
    lab.zones = (await up({ name, nodes: 3, ovn: 'trixie', zones: 'per-node' })).status.zones;
    writeFileSync(lab.file, renamed(fixtureName, owner));
  }, 180_000);
  afterAll(async () => {
    await down(name);
    rmSync(dir, { recursive: true, force: true });
  });
  return lab;
}
