/**
 * The gateway routers' external side in the lab: the lab reports each node's breth0 address, MAC
 * and default next hop, so `--lab` renders the rtoe- ports, ext_ switches with their localnet and
 * etor- ports, the default routes and the Static_MAC_Binding rows (owned through nb's ledger).
 * Proven with stacks/layer3-pair.yaml: northd binds them, east-west traffic still flows, a
 * second apply sends nothing, and destroy removes exactly our rows.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { inventoryOf } from '../../lab';
import '../setup/lab';
import { appliedForTheseTests, nbctl, ovnk, ownedRowCounts, podIPs, podNetns, reaches } from './networks-helpers';

const lab = inject('lab');
const file = path.resolve(__dirname, '../../stacks/layer3-pair.yaml');
const owner = 'layer3-pair';
const gr = 'GR_cluster_udn_blue_ovn-worker';
const foreign = { port: `rtoe-${gr}`, ip: '169.254.0.99', mac: '0a:00:00:00:00:99' };

/** `<logical_port> <ip>` of every Static_MAC_Binding row. */
const bindings = () =>
  nbctl(lab, '--format=csv', '--data=bare', '--no-headings', '--columns=logical_port,ip', 'list', 'Static_MAC_Binding')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.replace(',', ' '));
const ledger = () => nbctl(lab, 'get', 'NB_Global', '.', 'external_ids');

appliedForTheseTests(lab, file, () => {
  for (const uuid of foreignBinding()) nbctl(lab, '--if-exists', 'destroy', 'Static_MAC_Binding', uuid);
});

function sbctl(...args: string[]): string {
  const argv = [...(lab.ovnRoot ? [lab.ovnRoot, 'ovn-sbctl'] : []), `--db=${lab.sb}`, ...args];
  return execFileSync(lab.ovnRoot ? 'chroot' : 'ovn-sbctl', argv, { encoding: 'utf8' });
}

function foreignBinding(): string[] {
  const uuid = nbctl(lab, '--bare', '--columns=_uuid', 'find', 'Static_MAC_Binding', `ip="${foreign.ip}"`).trim();
  return uuid === '' ? [] : [uuid];
}

describe("the gateway routers' external side, from the lab's gateway details", () => {
  it("the lab inventory names each node's breth0 address with prefix, its MAC and the default next hop", () => {
    for (const node of inventoryOf(lab).spec.nodes) {
      const namespace = lab.nodes.find((n) => n.name === node.name)!.namespace;
      const link = JSON.parse(
        execFileSync('ip', ['-n', namespace, '-j', 'addr', 'show', 'breth0'], { encoding: 'utf8' }),
      )[0];
      const v4 = link.addr_info.find((a: { family: string }) => a.family === 'inet');
      expect(node.nodeIPs).toEqual([`${v4.local}/${v4.prefixlen}`]);
      expect(node.gatewayMac).toBe(link.address);
      expect(node.gatewayNextHops).toEqual([expect.stringMatching(/^198\.19\.\d+\.1$/)]);
    }
  });

  it("renders the external port with breth0's MAC and address, the localnet port and the default route", () => {
    const node = inventoryOf(lab).spec.nodes.find((n) => n.name === 'ovn-worker')!;
    expect(nbctl(lab, 'get', 'Logical_Router_Port', `rtoe-${gr}`, 'mac').trim()).toBe(`"${node.gatewayMac}"`);
    expect(nbctl(lab, 'get', 'Logical_Router_Port', `rtoe-${gr}`, 'networks')).toContain(node.nodeIPs[0]!);
    expect(
      nbctl(lab, 'get', 'Logical_Switch_Port', 'breth0_cluster_udn_blue_ovn-worker', 'options:network_name').trim(),
    ).toBe('physnet');
    expect(nbctl(lab, 'lr-route-list', gr)).toMatch(
      new RegExp(`0\\.0\\.0\\.0/0\\s+${node.gatewayNextHops[0]!.replace(/\./g, '\\.')}\\s+dst-ip rtoe-${gr}`),
    );
  });

  it('northd binds the external and localnet ports to their nodes', () => {
    const chassis = nbctl(lab, 'get', 'Logical_Router', gr, 'options:chassis').trim().replace(/"/g, '');
    expect(chassis).toBe(lab.nodes.find((n) => n.name === 'ovn-worker')!.chassisId);
    expect(sbctl('--bare', '--columns=logical_port', 'find', 'Port_Binding', 'type=l3gateway')).toContain(`rtoe-${gr}`);
    expect(sbctl('--bare', '--columns=logical_port', 'find', 'Port_Binding', 'type=localnet')).toContain(
      'breth0_cluster_udn_blue_ovn-worker',
    );
  });

  it('writes the static MAC bindings of every gateway router, recorded in the ledger', () => {
    const ours = bindings();
    for (const node of lab.nodes) {
      for (const network of ['cluster_udn_blue', 'red_net']) {
        const port = `rtoe-GR_${network}_${node.name}`;
        expect(ours.filter((b) => b.startsWith(`${port} `)).sort()).toEqual(
          ['169.254.0.2', '169.254.0.4', 'fd69::2', 'fd69::4'].map((ip) => `${port} ${ip}`),
        );
      }
    }
    expect(ledger()).toContain(`"ovnk.io/owned/${owner}"`);
  });

  it('keeps east-west traffic flowing, also after the nodes ask again who has each node address', async () => {
    for (const node of lab.nodes) execFileSync('ip', ['-n', node.namespace, 'neigh', 'flush', 'all']);
    // each node asks for the others' addresses; their gateway routers answer too, with the same MAC
    for (const [i, node] of lab.nodes.entries()) {
      const other = lab.nodes[(i + 1) % lab.nodes.length]!;
      spawnSync('ip', ['netns', 'exec', node.namespace, 'ping', '-c1', '-W1', other.nodeIPs[0]!.split('/')[0]!], {
        stdio: 'ignore',
      });
    }
    expect(await reaches(podNetns(lab, 'blue', 'a'), podIPs(lab, 'blue', 'b')[0]!)).toBe(true);
    expect(await reaches(podNetns(lab, 'blue', 'b'), podIPs(lab, 'blue', 'a')[1]!)).toBe(true);
    expect(await reaches(podNetns(lab, 'red', 'a'), podIPs(lab, 'red', 'b')[0]!)).toBe(true);
  });

  it('a second apply sends nothing, diff is clean, and a foreign binding is left alone', () => {
    nbctl(
      lab,
      'create',
      'Static_MAC_Binding',
      `logical_port=${foreign.port}`,
      `ip="${foreign.ip}"`,
      `mac="${foreign.mac}"`,
    );
    const again = ovnk('apply', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(again.status, again.stderr).toBe(0);
    expect(again.json.zones.central).toMatchObject({ sent: false, operations: 0 });
    expect(ovnk('diff', '-f', file, '--lab', lab.name).status).toBe(0);
    expect(bindings()).toContain(`${foreign.port} ${foreign.ip}`);
  });

  it('destroy removes every row of ours and our bindings, and keeps the foreign binding', async () => {
    const destroyed = ovnk('destroy', '-f', file, '--lab', lab.name, '-o', 'json');
    expect(destroyed.status, destroyed.stderr).toBe(0);
    expect(await ownedRowCounts(lab, owner)).toEqual({});
    expect(bindings()).toEqual([`${foreign.port} ${foreign.ip}`]);
    expect(nbctl(lab, '--bare', '--columns=mac', 'find', 'Static_MAC_Binding', `ip="${foreign.ip}"`).trim()).toBe(
      foreign.mac,
    );
    expect(ledger()).not.toContain(`ovnk.io/owned/${owner}`);
    expect(ledger()).not.toContain(`ovnk.io/state/${owner}`);
  });
});
