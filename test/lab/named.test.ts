import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { down, labAlive, readState, up } from '../../lab';
import '../setup/lab';

const lab = inject('lab');
const name = `named${process.pid}`;

function namespaces(): string[] {
  return execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter(Boolean);
}

function rootLinks(): string[] {
  return (JSON.parse(execFileSync('ip', ['-j', 'link', 'show'], { encoding: 'utf8' })) as { ifname: string }[]).map(
    (l) => l.ifname,
  );
}

function chassisCount(sb: string): number {
  return execFileSync('ovn-sbctl', [`--db=${sb}`, '--bare', '--columns=name', 'list', 'Chassis'], { encoding: 'utf8' })
    .split(/\s+/)
    .filter(Boolean).length;
}

describe('a second, named lab', () => {
  afterAll(async () => {
    await down(name);
  });

  it('comes up next to the shared lab without colliding, and down removes exactly its namespaces, links and pods', async () => {
    const { status } = await up({ name, nodes: 2, ovn: 'bookworm', zones: 'central' });
    const state = readState(name)!;
    const shared = readState(lab.name)!;
    expect(state.index).not.toBe(shared.index);
    expect(status.nbTcp).not.toBe(lab.nbTcp);
    expect(status.nodes.map((n) => n.ssh.host)).not.toContain(lab.nodes[0].ssh.host);
    expect(chassisCount(status.sb!)).toBe(2); // a central lab has one SB
    expect(chassisCount(lab.sb)).toBe(3);

    // a pod the network code would plug: a namespace with the lab's prefix, running a process
    const pod = `${state.layout.nodes[0].namespace}-p1`;
    execFileSync('ip', ['netns', 'add', pod]);
    const sleeper = execFileSync('sh', ['-c', `ip netns exec ${pod} sleep 600 >/dev/null 2>&1 & echo $!`], {
      encoding: 'utf8',
    }).trim();

    expect((await down(name)).stopped).toBe(true);
    const left = namespaces();
    for (const ns of [...state.namespaces, pod]) expect(left).not.toContain(ns);
    expect(rootLinks()).not.toContain(state.layout.hostLink);
    expect(
      execFileSync('sh', ['-c', `grep -s '^State' /proc/${sleeper}/status || echo gone`], { encoding: 'utf8' }),
    ).toMatch(/gone|Z \(zombie\)/);
    expect(readState(name)).toBeUndefined();

    // the shared lab is untouched
    expect(labAlive(shared)).toBe(true);
    expect(rootLinks()).toContain(shared.layout.hostLink);
    expect(chassisCount(lab.sb)).toBe(3);
  });

  it('is safe to bring down when nothing runs', async () => {
    expect(await down(name)).toEqual({ name, stopped: false });
  });
});
