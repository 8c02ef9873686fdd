import { execFileSync, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { addPod, nbctl as labNbctl, pingWithRetries, readState, removePod, syncChassis } from '../../lab';
import '../setup/lab';

const lab = inject('lab');
const nbctl = (...args: string[]) => labNbctl(lab, ...args);
const sw = `dp-smoke-${process.pid}`;
const pods = [
  {
    namespace: 'smoke',
    name: 'a',
    node: lab.nodes[0].name,
    ifaceId: `${sw}-a`,
    mac: '0a:58:0a:09:00:0a',
    addresses: ['10.9.0.10/24'],
  },
  {
    namespace: 'smoke',
    name: 'b',
    node: lab.nodes[2].name,
    ifaceId: `${sw}-b`,
    mac: '0a:58:0a:09:00:0b',
    addresses: ['10.9.0.11/24'],
  },
];

afterAll(async () => {
  for (const pod of pods) await removePod(lab.name, pod.namespace, pod.name);
  nbctl('--if-exists', 'ls-del', sw);
});

describe('the lab dataplane', () => {
  it('carries a ping between pods on two nodes over geneve, and records the pods in the lab state', async () => {
    nbctl('ls-add', sw);
    for (const pod of pods)
      nbctl(
        'lsp-add',
        sw,
        pod.ifaceId,
        '--',
        'lsp-set-addresses',
        pod.ifaceId,
        `${pod.mac} ${pod.addresses[0].split('/')[0]}`,
      );
    const records = [];
    for (const pod of pods) records.push(await addPod(lab.name, pod));
    syncChassis(lab);
    expect(await pingWithRetries(records[0].netns, '10.9.0.11', { tries: 10, whileLabWorks: true })).toBe(true);
    expect(readState(lab.name)!.pods.map((p) => `${p.namespace}/${p.name}@${p.node}`)).toEqual(
      pods.map((p) => `smoke/${p.name}@${p.node}`),
    );
  });

  it('runs a command in a pod through ovnk lab exec and passes its exit code on', () => {
    const cli = path.resolve(__dirname, '../../dist/cli/main.js');
    const shown = spawnSync(
      process.execPath,
      [cli, 'lab', 'exec', '--name', lab.name, 'smoke/b', '--', 'ip', '-br', 'addr', 'show', 'eth0'],
      { encoding: 'utf8' },
    );
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain('10.9.0.11/24');
    const failed = spawnSync(
      process.execPath,
      [cli, 'lab', 'exec', '--name', lab.name, 'smoke/b', '--', 'sh', '-c', 'exit 7'],
      { encoding: 'utf8' },
    );
    expect(failed.status).toBe(7);
  });

  it('removes a pod from the node and from the lab state', async () => {
    await removePod(lab.name, 'smoke', 'a');
    expect(readState(lab.name)!.pods.map((p) => p.name)).toEqual(['b']);
    const namespaces = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
    expect(namespaces).not.toMatch(new RegExp(`^${lab.nodes[0].namespace}-p\\d+`, 'm'));
  });
});
