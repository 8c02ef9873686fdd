import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { down, readState, up } from '../../lab';
import { startInterconnect, type InterconnectZone } from '../../lab/ic/zones';
import { fixture, ovnk, podIPs, podNetns, reaches } from './networks-helpers';

// The per-node layout proven with packets: a trixie lab of its own whose three nodes are each an
// availability zone with its own Northbound, Southbound and northd; `ovnk apply` writes each
// zone's rows (local node, remote transit-switch ports bound to the other nodes' chassis).
const name = `ic-l3-${process.pid % 100000}`;
const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-ic-l3-'));
const file = path.join(dir, 'per-node.yaml');
let zones: InterconnectZone[] = [];

function perNodeFile(): string {
  const targets = zones.map((z) => `      ${z.name}: {nb: "${z.nb}"}`).join('\n');
  return readFileSync(fixture('networks-layer3.yaml'), 'utf8')
    .replace('name: t-networks-l3', 'name: t-ic-l3')
    .replace('  ipFamilies: [IPv4, IPv6]', `  ipFamilies: [IPv4, IPv6]\n  zones: per-node\n  targets:\n    zones:\n${targets}`);
}

const lab = () => readState(name)!;

beforeAll(async () => {
  await up({ name, nodes: 3, ovn: 'trixie' });
  zones = await startInterconnect(name);
  writeFileSync(file, perNodeFile());
}, 180_000);

afterAll(async () => {
  await down(name);
  rmSync(dir, { recursive: true, force: true });
});

const netnsOf = (ns: string, pod: string) => podNetns({ name } as never, ns, pod);
const ipv4Of = (ns: string, pod: string) => podIPs({ name } as never, ns, pod)[0]!;

describe('the per-node layout in a lab with one Northbound per node', () => {
  it('every zone is its own Northbound, named after its node', () => {
    expect(zones.map((z) => z.name)).toEqual(['ovn-worker', 'ovn-worker2', 'ovn-worker3']);
    expect(new Set(zones.map((z) => z.nb)).size).toBe(3);
  });

  it('apply writes every zone and plugs the pods on their nodes', () => {
    const applied = ovnk('apply', '-f', file, '--lab', name, '-o', 'json');
    expect(applied.status, applied.stderr + applied.stdout).toBe(0);
    for (const zone of zones) expect(applied.json.zones[zone.name].sent).toBe(true);
    expect(lab().pods.map((p) => `${p.namespace}/${p.name}@${p.node}`).sort()).toEqual(['blue/a@ovn-worker', 'blue/b@ovn-worker2', 'red/a@ovn-worker2', 'red/b@ovn-worker3']);
  });

  it('a Layer3 pod reaches a pod of its network on another node (another zone), both ways', async () => {
    expect(await reaches(netnsOf('blue', 'a'), ipv4Of('blue', 'b'), 20)).toBe(true);
    expect(await reaches(netnsOf('blue', 'b'), ipv4Of('blue', 'a'))).toBe(true);
    expect(await reaches(netnsOf('red', 'a'), ipv4Of('red', 'b'), 20)).toBe(true);
  });

  it('a pod does not reach a pod of the other network', async () => {
    expect(await reaches(netnsOf('blue', 'b'), ipv4Of('red', 'b'), 3)).toBe(false);
  });
});
