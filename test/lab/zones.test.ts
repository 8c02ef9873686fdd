import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { down, type LabStatus, ovnTool as labOvnTool, readState, up } from '../../lab';
import { ovnk } from './networks-helpers';

// `ovnk lab up` runs upstream's layout by default: per node its own Northbound, Southbound and
// northd, the node's ovn-controller in its zone, the other nodes registered as remote chassis in
// every zone; status, inventory and `--lab` targets list one endpoint per zone. A lab of its own
// (the suite's shared lab is central, see test/setup/lab.ts).
const name = `zn-${process.pid % 100000}`;
const bare = `zb-${process.pid % 100000}`;
let status: LabStatus;

afterAll(async () => {
  await down(name);
  await down(bare);
});

function ovnTool(tool: string, db: string, ...args: string[]): string {
  return labOvnTool(readState(name)!.ovnRoot!, tool, db, ...args);
}

/** hostname -> is-remote of every Chassis in a zone's Southbound. */
function chassisOf(sb: string, tool = ovnTool): Record<string, string> {
  const listed = tool('ovn-sbctl', sb, '--format=json', '--columns=hostname,other_config', 'list', 'Chassis');
  const rows = (JSON.parse(listed) as { data: [string, ['map', [string, string][]]][] }).data;
  return Object.fromEntries(
    rows.map(([host, [, config]]) => [host, config.find(([k]) => k === 'is-remote')?.[1] ?? 'local']),
  );
}

describe('ovnk lab up with no --zones (per-node, as upstream)', () => {
  it('starts one zone per node, each with its own Northbound and Southbound, and no central database', () => {
    const started = ovnk('lab', 'up', '--name', name, '-o', 'json');
    expect(started.status, started.stderr + started.stdout).toBe(0);
    const { alreadyRunning, seconds, ...shown } = started.json;
    expect([alreadyRunning, seconds > 0]).toEqual([false, true]);
    status = shown;
    expect(status.zoneLayout).toBe('per-node');
    expect(status.zones.map((z) => z.name)).toEqual(['ovn-worker', 'ovn-worker2', 'ovn-worker3']);
    expect(new Set(status.zones.flatMap((z) => [z.nb, z.sb])).size).toBe(6);
    expect(status.nb).toBeUndefined();
    expect(status.sb).toBeUndefined();
  });

  it("names every zone's NB_Global after its node, so northd and the rows know their zone", () => {
    for (const zone of status.zones)
      expect(ovnTool('ovn-nbctl', zone.nb, 'get', 'NB_Global', '.', 'name').trim()).toBe(zone.name);
  });

  it("registers the node's own chassis in its zone and the other nodes as remote chassis in every zone", () => {
    for (const zone of status.zones) {
      const expected = Object.fromEntries(status.nodes.map((n) => [n.name, n.name === zone.name ? 'local' : 'true']));
      expect(chassisOf(zone.sb), zone.name).toEqual(expected);
    }
  });

  it('lists one endpoint per zone in its status and inventory, which --lab targets', () => {
    const shown = ovnk('lab', 'status', '--name', name, '-o', 'json');
    // the CLI's status adds each daemon's health to the lab's own status
    expect(shown.json).toEqual({ ...status, healthy: true, daemons: expect.any(Array) });
    expect(shown.json.daemons.length).toBeGreaterThan(0);
    const inventory = ovnk('lab', 'inventory', '--name', name, '-o', 'json').json;
    expect(inventory.spec.zones).toBe('per-node');
    expect(inventory.spec.targets.zones).toEqual(
      Object.fromEntries(status.zones.map((z) => [z.name, { nb: z.nb, sb: z.sb }])),
    );
    const planned = ovnk(
      'plan',
      '-f',
      path.resolve(__dirname, '../../stacks/layer3-pair.yaml'),
      '--lab',
      name,
      '-o',
      'json',
    );
    expect(planned.status, planned.stderr).toBe(0);
    expect(Object.keys(planned.json.zones ?? {}).sort()).toEqual(status.zones.map((z) => z.name));
  });

  it('shows each zone in its text status', () => {
    const shown = ovnk('lab', 'status', '--name', name);
    for (const zone of status.zones) expect(shown.stdout).toContain(`zone ${zone.name}  nb ${zone.nb}`);
  });

  it('refuses a running per-node lab asked for as central, and per-node zones on the bookworm OVN', async () => {
    await expect(up({ name, nodes: 3, ovn: 'trixie', zones: 'central' })).rejects.toMatchObject({
      kind: 'refused',
      message: expect.stringContaining('already running with per-node zones'),
    });
    const bookworm = ovnk('lab', 'up', '--name', `zx-${process.pid % 100000}`, '--ovn', 'bookworm', '-o', 'json');
    expect(bookworm.status).toBe(3);
    expect(bookworm.json.error).toContain('--zones central');
    const unknown = ovnk('lab', 'up', '--name', `zx-${process.pid % 100000}`, '--zones', 'sideways', '-o', 'json');
    expect(unknown.status).toBe(3);
    expect(unknown.json.error).toContain('--zones sideways is not known');
  });
});

describe('ovnk lab up --no-data-plane', () => {
  it('starts only the zones (databases, northd, remote chassis), with no node namespace or node target', async () => {
    const started = ovnk('lab', 'up', '--name', bare, '--nodes', '4', '--no-data-plane', '-o', 'json');
    expect(started.status, started.stderr + started.stdout).toBe(0);
    const bareStatus: LabStatus = started.json;
    expect(bareStatus.dataPlane).toBe(false);
    expect(bareStatus.zones).toHaveLength(4);
    const state = readState(bare)!;
    expect(state.namespaces).toEqual([state.layout.fabricNamespace]);
    expect(state.daemons.map((d) => d.program).sort()).toEqual(
      [...Array(4).fill('ovn-northd'), ...Array(8).fill('ovsdb-server')].sort(),
    );
    const tool = (t: string, db: string, ...args: string[]) => labOvnTool(state.ovnRoot!, t, db, ...args);
    for (const zone of bareStatus.zones) {
      const others = bareStatus.nodes.filter((n) => n.name !== zone.name).map((n) => [n.name, 'true']);
      expect(chassisOf(zone.sb, tool)).toEqual(Object.fromEntries(others));
    }
    const inventory = ovnk('lab', 'inventory', '--name', bare, '-o', 'json').json;
    expect(Object.keys(inventory.spec.targets.zones)).toHaveLength(4);
    expect(inventory.spec.targets.nodes).toEqual({});
    expect((await down(bare)).stopped).toBe(true);
  });
});
