import { execFileSync } from 'node:child_process';
import * as net from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { LabError, listLabNames, readState, up } from '../../lab';
import { inventoryOf } from '../../lab/inventory';
import '../setup/lab';

const lab = inject('lab');

function sb(...args: string[]): string {
  return execFileSync('ovn-sbctl', [`--db=${lab.sb}`, ...args], { encoding: 'utf8' });
}

function namespaces(): string[] {
  return execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter(Boolean);
}

describe('the shared test lab', () => {
  it('lists 3 nodes with distinct chassis, each registered in the Southbound with its hostname and encap IP', () => {
    expect(lab.nodes).toHaveLength(3);
    expect(new Set(lab.nodes.map((n) => n.chassisId)).size).toBe(3);
    for (const node of lab.nodes) {
      const row = sb('--bare', '--columns=hostname', 'find', 'Chassis', `name=${node.chassisId}`).trim();
      expect(row).toBe(node.name);
      const encap = sb('--bare', '--columns=ip', 'find', 'Encap', `chassis_name=${node.chassisId}`).trim();
      expect(encap).toBe(node.encapIp);
    }
  });

  it('gives endpoints in OVSDB syntax that answer, over unix and tcp', async () => {
    for (const remote of [lab.nb, lab.nbTcp]) {
      const out = execFileSync('ovn-nbctl', [`--db=${remote}`, 'get', 'NB_Global', '.', '_uuid'], { encoding: 'utf8' });
      expect(out.trim()).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(lab.nb).toMatch(/^unix:\//);
    expect(lab.sbTcp).toMatch(/^tcp:198\.18\.\d+\.1:\d+$/);
  });

  it('runs every node in its own namespace with breth0 holding the encap IP and the default route', () => {
    for (const node of lab.nodes) {
      expect(namespaces()).toContain(node.namespace);
      const routes = JSON.parse(
        execFileSync('ip', ['-n', node.namespace, '-j', 'route', 'show', 'default'], { encoding: 'utf8' }),
      ) as { dev: string; metric?: number }[];
      // the Uplink host ports (lab/uplinks.ts) add default routes with metrics 200+; breth0's is the one in use
      expect(routes.filter((r) => r.metric === undefined).map((r) => r.dev)).toEqual(['breth0']);
      const addrs = JSON.parse(
        execFileSync('ip', ['-n', node.namespace, '-j', 'addr', 'show', 'breth0'], { encoding: 'utf8' }),
      ) as { addr_info: { local: string }[] }[];
      expect(addrs[0].addr_info.map((a) => a.local)).toContain(node.encapIp);
    }
  });

  it('reports a second up of the running lab without starting anything', async () => {
    const before = readState(lab.name)!.startedAt;
    const again = await up({ name: lab.name, nodes: 3, ovn: lab.ovn });
    expect(again.alreadyRunning).toBe(true);
    expect(again.status).toEqual(lab);
    expect(readState(lab.name)!.startedAt).toBe(before);
  });

  it('refuses an up of the running lab under another OVN, saying what to do', async () => {
    const other = lab.ovn === 'bookworm' ? 'trixie' : 'bookworm';
    const attempt = up({ name: lab.name, nodes: 3, ovn: other });
    await expect(attempt).rejects.toBeInstanceOf(LabError);
    await expect(attempt).rejects.toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/already running with the .* OVN: run "ovnk lab down --name/),
    });
  });

  it('rejects bad options before claiming anything', async () => {
    const name = `bad${process.pid}`;
    await expect(up({ name, nodes: 0, ovn: 'bookworm' })).rejects.toMatchObject({
      kind: 'bad-input',
      message: expect.stringContaining('--nodes 0'),
    });
    expect(listLabNames()).not.toContain(name);
  });

  it('describes itself as an Inventory whose targets name the NB endpoint and pinned SSH settings, without key material', () => {
    const inventory = inventoryOf(lab);
    expect(inventory).toMatchObject({ apiVersion: 'ovnk/v1alpha1', kind: 'Inventory', spec: { zones: 'central' } });
    expect(inventory.spec.nodes.map((n) => n.id)).toEqual([2, 3, 4]);
    expect(inventory.spec.targets.zones.central.nb).toBe(lab.nb);
    for (const node of lab.nodes) {
      expect(inventory.spec.targets.nodes[node.name]).toMatchObject({
        host: node.ssh.host,
        hostKey: node.ssh.hostKeyFingerprint,
      });
      expect(inventory.spec.targets.nodes[node.name].hostKey).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    }
    expect(JSON.stringify(inventory)).not.toMatch(/PRIVATE KEY/);
  });

  it('has an sshd on every node that sends an SSH banner', async () => {
    for (const node of lab.nodes) {
      const banner = await new Promise<string>((resolve, reject) => {
        const socket = net.connect({ host: node.ssh.host, port: node.ssh.port });
        socket.once('data', (d) => {
          socket.destroy();
          resolve(d.toString());
        });
        socket.once('error', reject);
      });
      expect(banner).toMatch(/^SSH-2\.0-OpenSSH/);
    }
  });
});
