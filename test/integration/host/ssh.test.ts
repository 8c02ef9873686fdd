import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { LabNodeStatus } from '../../../lab';
import {
  commandOutput,
  HostArgvError,
  HostAuthError,
  HostKeyRejectedError,
  HostPool,
  HostTimeoutError,
  HostUnreachableError,
  SshHostRunner,
  type SshTarget,
} from '../../../provider/host';
import '../../setup/lab';

const lab = inject('lab');
const pool = new HostPool();

function targetOf(node: LabNodeStatus, extra: Partial<SshTarget> = {}): SshTarget {
  const { host, port, user, keyPath, hostKeyFingerprint } = node.ssh;
  return { host, port, user, keyPath, hostKey: { fingerprint: hostKeyFingerprint }, connectTimeoutMs: 5000, ...extra };
}

const runnerOf = (node: LabNodeStatus) => pool.runner(targetOf(node));
const hostKeyLine = (node: LabNodeStatus) =>
  readFileSync(path.join(lab.dir, 'nodes', node.name, 'ssh_host_ed25519_key.pub'), 'utf8')
    .trim()
    .split(' ')
    .slice(0, 2)
    .join(' ');

/** ovn-controller adds tunnels shortly after its chassis registers: retry a read until it settles. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterAll(async () => {
  await pool.closeAll();
});

describe('SSH HostRunner against the lab nodes', () => {
  it('runs hostname on every node, and each answers with its own name', async () => {
    const names = await Promise.all(
      lab.nodes.map(async (node) => (await runnerOf(node).run(['hostname'])).stdout.trim()),
    );
    expect(names).toEqual(lab.nodes.map((n) => n.name));
  });

  it('runs ovs-vsctl on every node, and each shows its own bridges and system-id', async () => {
    for (const node of lab.nodes) {
      const runner = runnerOf(node);
      const show = await eventually(
        () => runner.run(['ovs-vsctl', 'show']),
        (r) => (r.stdout.match(/type: geneve/g) ?? []).length === lab.nodes.length - 1,
      );
      expect(show.exitCode).toBe(0);
      expect(show.stdout).toContain('Bridge br-int');
      expect(show.stdout).toContain(`Bridge ${node.gatewayBridge}`);
      const others = lab.nodes.filter((n) => n !== node).map((n) => `remote_ip="${n.encapIp}"`);
      for (const tunnel of others) expect(show.stdout).toContain(tunnel);
      expect(show.stdout).not.toContain(`remote_ip="${node.encapIp}"`);
      const id = await runner.run(['ovs-vsctl', 'get', 'Open_vSwitch', '.', 'external_ids:system-id']);
      expect(id.stdout.trim()).toBe(`"${node.chassisId}"`);
    }
  });

  it('returns the exit code and stderr of a failing command', async () => {
    const result = await runnerOf(lab.nodes[0]).run(['sh', '-c', 'echo oops >&2; echo out; exit 3']);
    expect(result).toEqual({ exitCode: 3, stdout: 'out\n', stderr: 'oops\n' });
  });

  it("gives a command's output, or fails naming the command, the node, the exit and its words, unless they are accepted", async () => {
    const runner = runnerOf(lab.nodes[0]!);
    expect(await commandOutput(runner, ['printf', 'ok'])).toBe('ok');
    const failing = ['sh', '-c', 'echo no such bridge >&2; exit 2'];
    await expect(commandOutput(runner, failing)).rejects.toThrow(
      `sh -c echo no such bridge >&2; exit 2 on ${runner.describe} failed (exit 2): no such bridge`,
    );
    expect(await commandOutput(runner, failing, { accepted: /no such bridge/ })).toBe('');
    await expect(commandOutput(runner, failing, { accepted: /not there/ })).rejects.toThrow(/exit 2/);
  });

  it('passes argv with spaces, quotes, semicolons and shell syntax through intact, without injection', async () => {
    const marker = `/tmp/ovnk-injected-${process.pid}`;
    const words = [
      'a b',
      "it's",
      '"double"',
      `x; touch ${marker}`,
      '$(touch ' + marker + ')',
      '`id`',
      '*',
      '',
      'tab\there',
      'new\nline',
      '\\back',
    ];
    const runner = runnerOf(lab.nodes[1]);
    const result = await runner.run(['printf', '[%s]\\n', ...words]);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toBe(words.map((w) => `[${w}]\n`).join(''));
    // look where an injected touch would have run: on the node (its /tmp is the OVN root's for trixie)
    expect((await runner.run(['test', '-e', marker])).exitCode).toBe(1);
    expect((await runner.run(['sh', '-c', `touch ${marker} && test -e ${marker} && rm ${marker}`])).exitCode).toBe(0);
  });

  it('reports the exit status of every one of many quick commands (none lost to a race with the channel close)', async () => {
    const runner = runnerOf(lab.nodes[2]);
    const codes: number[] = [];
    for (let i = 0; i < 200; i++) codes.push((await runner.run(['sh', '-c', `exit ${i % 3}`])).exitCode);
    expect(codes).toEqual(Array.from({ length: 200 }, (_, i) => i % 3));
  });

  it('feeds stdin to the command', async () => {
    const text = 'first line\nsecond line\n';
    expect((await runnerOf(lab.nodes[2]).run(['cat'], { stdin: text })).stdout).toBe(text);
    const big = Buffer.alloc(300_000, 'x');
    expect((await runnerOf(lab.nodes[2]).run(['wc', '-c'], { stdin: big })).stdout.trim()).toBe('300000');
  });

  it('serializes commands to one host: concurrent calls never overlap', async () => {
    const lock = `/tmp/ovnk-serial-${process.pid}`;
    const runner = runnerOf(lab.nodes[0]);
    const script = `mkdir ${lock} || exit 9; sleep 0.2; rmdir ${lock}`;
    const results = await Promise.all([1, 2, 3].map(() => runner.run(['sh', '-c', script])));
    expect(results.map((r) => r.exitCode)).toEqual([0, 0, 0]);
  });

  it('kills a command that passes its timeout, fails with a timeout error, and keeps working', async () => {
    const runner = runnerOf(lab.nodes[1]);
    const started = Date.now();
    await expect(runner.run(['sleep', '5'], { timeoutMs: 300 })).rejects.toBeInstanceOf(HostTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await runner.run(['true'])).exitCode).toBe(0);
  });

  it('rejects an empty argv or a NUL byte, naming the element', async () => {
    await expect(runnerOf(lab.nodes[0]).run([])).rejects.toMatchObject({ field: 'argv' });
    await expect(runnerOf(lab.nodes[0]).run(['echo', 'a\0b'])).rejects.toBeInstanceOf(HostArgvError);
    await expect(runnerOf(lab.nodes[0]).run(['echo', 'a\0b'])).rejects.toMatchObject({ field: 'argv[1]' });
  });

  it('shares one runner per host in the pool', () => {
    expect(pool.runner(targetOf(lab.nodes[0]))).toBe(pool.runner(targetOf(lab.nodes[0])));
    expect(pool.runner(targetOf(lab.nodes[0]))).not.toBe(pool.runner(targetOf(lab.nodes[1])));
  });
});

describe('SSH host-key pinning and failures', () => {
  it('refuses a server whose key differs from the pinned fingerprint, naming both', async () => {
    const [node, other] = lab.nodes;
    const runner = new SshHostRunner(
      targetOf(node, { hostKey: { fingerprint: other.ssh.hostKeyFingerprint }, acceptUnknownHostKey: true }),
    );
    const attempt = runner.run(['hostname']);
    await expect(attempt).rejects.toBeInstanceOf(HostKeyRejectedError);
    await expect(attempt).rejects.toThrow(
      new RegExp(
        `presented host key ${node.ssh.hostKeyFingerprint.replace(/[+/]/g, '\\$&')}, but ${other.ssh.hostKeyFingerprint.replace(/[+/]/g, '\\$&')} is pinned`,
      ),
    );
    await runner.close();
  });

  it('refuses an unknown key unless the caller opts in', async () => {
    const node = lab.nodes[1];
    const strict = new SshHostRunner(targetOf(node, { hostKey: undefined }));
    await expect(strict.run(['hostname'])).rejects.toThrow(
      /which no pin covers: refusing to connect; pin it .* or opt in with acceptUnknownHostKey: true/,
    );
    const trusting = new SshHostRunner(targetOf(node, { hostKey: undefined, acceptUnknownHostKey: true }));
    expect((await trusting.run(['hostname'])).stdout.trim()).toBe(node.name);
    expect(trusting.presentedFingerprint).toBe(node.ssh.hostKeyFingerprint);
    await Promise.all([strict.close(), trusting.close()]);
  });

  it('accepts a known_hosts pin for the host and refuses one that lists another key', async () => {
    const [node, other] = lab.nodes;
    const good = new SshHostRunner(
      targetOf(node, { hostKey: { knownHosts: `# lab\n${node.ssh.host} ${hostKeyLine(node)}\n` } }),
    );
    expect((await good.run(['hostname'])).stdout.trim()).toBe(node.name);
    const bad = new SshHostRunner(
      targetOf(node, { hostKey: { knownHosts: `${node.ssh.host} ${hostKeyLine(other)}\n` } }),
    );
    await expect(bad.run(['hostname'])).rejects.toBeInstanceOf(HostKeyRejectedError);
    await Promise.all([good.close(), bad.close()]);
  });

  it('refuses a client key the server does not know, naming the key file and never its contents', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-key-'));
    try {
      const keyPath = path.join(dir, 'stranger');
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyPath]);
      const runner = new SshHostRunner(targetOf(lab.nodes[0], { keyPath }));
      const error = await runner.run(['true']).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(HostAuthError);
      const { message } = error as HostAuthError;
      expect(message).toContain(keyPath);
      expect(message).not.toMatch(/PRIVATE KEY|AAAA/);
      await runner.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails an unreachable node alone, with a clear error within its timeout', async () => {
    const ghost = {
      ...lab.nodes[0],
      ssh: { ...lab.nodes[0].ssh, host: lab.nodes[0].ssh.host.replace(/\.\d+$/, '.250') },
    };
    const started = Date.now();
    const [lost, alive] = await Promise.allSettled([
      new SshHostRunner(targetOf(ghost, { connectTimeoutMs: 1500 })).run(['hostname']),
      runnerOf(lab.nodes[2]).run(['hostname']),
    ]);
    expect(Date.now() - started).toBeLessThan(3500);
    expect(lost.status).toBe('rejected');
    expect((lost as PromiseRejectedResult).reason).toBeInstanceOf(HostUnreachableError);
    expect((lost as PromiseRejectedResult).reason.message).toMatch(
      new RegExp(`${ghost.ssh.host.replace(/\./g, '\\.')}:22`),
    );
    expect(alive).toMatchObject({ status: 'fulfilled', value: { stdout: `${lab.nodes[2].name}\n` } });
  });
});
