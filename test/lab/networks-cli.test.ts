import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { readState } from '../../lab';
import '../setup/lab';
import { fixture, nbctl, ovnk, ownedRowCounts } from './networks-helpers';

const lab = inject('lab');
const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-networks-cli-'));
const base = readFileSync(fixture('networks-layer3.yaml'), 'utf8').replace(
  'name: t-networks-l3',
  'name: t-networks-cli',
);
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};

const ours = () => readState(lab.name)!.pods.filter((p) => p.namespace === 'blue' || p.namespace === 'red');

afterAll(() => {
  ovnk('destroy', '-f', write('base.yaml', base), '--lab', lab.name);
  rmSync(dir, { recursive: true, force: true });
});

describe('ovnk apply, diff and destroy: the command-line contract', () => {
  it('refuses a bad field with exit 3, naming the file and the field, and sends nothing', async () => {
    const file = write(
      'bad.yaml',
      base.replace('hostSubnet: 24}, {cidr: "fd10::/60"', 'hostSubnet: 8}, {cidr: "fd10::/60"'),
    );
    const result = ovnk('apply', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(result.status).toBe(3);
    expect(result.json).toMatchObject({
      ok: false,
      file,
      path: 'ClusterUserDefinedNetwork/blue: spec.network.layer3.subnets[0]',
    });
    expect(await ownedRowCounts(lab, 't-networks-cli')).toEqual({});
  });

  it('refuses a plan with problems with exit 1 and sends nothing', async () => {
    // EVPN on Layer2 needs upstream's MAC-VRF port and ARP/ND deny ACLs, which we do not render
    const evpnLayer2 =
      '---\napiVersion: k8s.ovn.org/v1\nkind: ClusterUserDefinedNetwork\nmetadata: {name: ln}\nspec:\n  namespaceSelector: {matchLabels: {network: green}}\n  network:\n    topology: Layer2\n    layer2: {role: Primary, subnets: [10.50.0.0/16]}\n    transport: EVPN\n    evpn: {vtep: vtep1, macVRF: {vni: 100}}\n';
    const withGreen = base.replace(
      '  - {name: red, labels: {network: red}}\n',
      '  - {name: red, labels: {network: red}}\n  - {name: green, labels: {network: green}}\n',
    );
    const result = ovnk('apply', '-f', write('evpn.yaml', withGreen + evpnLayer2), '--lab', lab.name, '-o', 'json');
    expect(result.status).toBe(1);
    expect(result.json.problems).toEqual([
      expect.objectContaining({
        reason: 'UnsupportedNetworkType',
        path: 'ClusterUserDefinedNetwork/ln: spec.network.transport',
      }),
    ]);
    expect(await ownedRowCounts(lab, 't-networks-cli')).toEqual({});
    expect(nbctl(lab, 'get', 'NB_Global', '.', 'external_ids')).not.toContain('t-networks-cli');
  });

  it('reports an unreachable Northbound with exit 4, naming the endpoint', () => {
    const endpoint = `unix:${path.join(dir, 'no-such.sock')}`;
    const result = ovnk('diff', '-f', write('base.yaml', base), '--lab', lab.name, '--nb', endpoint, '-o', 'json');
    expect(result.status).toBe(4);
    expect(result.json.error).toContain(`cannot reach the Northbound at ${endpoint}`);
  });

  it('diff before any apply reports every row as missing (exit 2); --owner keeps state and rows apart', async () => {
    const file = write('base.yaml', base);
    const drift = ovnk('diff', '-f', file, '--lab', lab.name, '--owner', 't-networks-cli-2', '-o', 'json');
    expect(drift.status).toBe(2);
    expect(drift.json.zones.central.drift.every((line: string) => line.startsWith('missing: '))).toBe(true);
    const applied = ovnk(
      'apply',
      '-f',
      file,
      '--lab',
      lab.name,
      '--owner',
      't-networks-cli-2',
      '--zone',
      'central',
      '-o',
      'json',
    );
    expect(applied.status, applied.stderr).toBe(0);
    expect(applied.json.zones.central.operations).toBeGreaterThan(100);
    expect(nbctl(lab, 'get', 'NB_Global', '.', 'external_ids')).toContain('ovnk.io/state/t-networks-cli-2');
    expect(await ownedRowCounts(lab, 't-networks-cli')).toEqual({});
    expect(ovnk('destroy', '-f', file, '--lab', lab.name, '--owner', 't-networks-cli-2').status).toBe(0);
    expect(await ownedRowCounts(lab, 't-networks-cli-2')).toEqual({});
  });

  it('refuses, with nothing sent, to replug a lab pod that another owner plugged', async () => {
    const file = write('base.yaml', base);
    expect(ovnk('apply', '-f', file, '--lab', lab.name, '--owner', 't-networks-cli-a').status).toBe(0);
    const other = write('other.yaml', base.replace('name: blue}', 'name: azure}'));
    const refused = ovnk('apply', '-f', other, '--lab', lab.name, '--owner', 't-networks-cli-b', '-o', 'json');
    expect(refused.status).toBe(1);
    expect(refused.json.error).toMatch(
      /^pod blue\/a is already plugged in lab .* on port blue.blue_blue_a, not by this owner/,
    );
    expect(await ownedRowCounts(lab, 't-networks-cli-b')).toEqual({});
    expect(ovnk('destroy', '-f', file, '--lab', lab.name, '--owner', 't-networks-cli-a').status).toBe(0);
  });

  it('unplugs a pod that left the file and removes its port, keeping the others', async () => {
    const file = write('base.yaml', base);
    expect(ovnk('apply', '-f', file, '--lab', lab.name, '--owner', 't-networks-cli-p').status).toBe(0);
    const fewer = write('fewer.yaml', base.replace('  - {name: b, namespace: red, node: ovn-worker3}\n', ''));
    const applied = ovnk('apply', '-f', fewer, '--lab', lab.name, '--owner', 't-networks-cli-p', '-o', 'json');
    expect(applied.status, applied.stderr).toBe(0);
    expect(applied.json.pods).toEqual({ plugged: [], unplugged: ['red/b'] });
    expect(applied.json.zones.central.summary).toContain('delete Logical_Switch_Port "red.net_red_b"');
    expect(
      ours()
        .map((p) => `${p.namespace}/${p.name}`)
        .sort(),
    ).toEqual(['blue/a', 'blue/b', 'red/a']);
    expect(ovnk('destroy', '-f', fewer, '--lab', lab.name, '--owner', 't-networks-cli-p').status).toBe(0);
    expect(ours()).toEqual([]);
  });

  it('refuses an owner that cannot be a marker with exit 3', () => {
    const result = ovnk('apply', '-f', write('base.yaml', base), '--lab', lab.name, '--owner', '=bad', '-o', 'json');
    expect(result.status).toBe(3);
    expect(result.json).toMatchObject({ path: '--owner' });
    expect(result.json.error).toContain('is not a valid owner name');
  });

  it('refuses an unknown --zone with exit 3', () => {
    const result = ovnk('apply', '-f', write('base.yaml', base), '--lab', lab.name, '--zone', 'nowhere', '-o', 'json');
    expect(result.status).toBe(3);
    expect(result.json).toMatchObject({ path: '--zone' });
  });
});
