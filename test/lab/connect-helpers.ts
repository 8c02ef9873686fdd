/**
 * Helpers of the NetworkConnect packet tests: topology files of stacks/ (and variants of them
 * written to a temp dir), pings run concurrently from pod namespaces, TCP requests, a listener
 * in a pod, the runtime state an owner stored in NB_Global, and the lab's ovn-sbctl.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LabStatus } from '../../lab';
import { nbctl, podIPs, podNetns } from './networks-helpers';

export const stack = (name: string): string => path.resolve(__dirname, '../../stacks', name);

const tempDir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-connect-test-'));
export const removeTempFiles = (): void => rmSync(tempDir, { recursive: true, force: true });

/** A variant of a stacks/ file: each [from, to] replaced exactly once (a missing text throws). */
export function variant(base: string, name: string, edits: [string, string][]): string {
  let text = readFileSync(stack(base), 'utf8');
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`${base} has no text ${JSON.stringify(from)}`);
    text = text.replace(from, to);
  }
  const file = path.join(tempDir, name);
  writeFileSync(file, text);
  return file;
}

export function sbctl(lab: LabStatus, ...args: string[]): string {
  const argv = [...(lab.ovnRoot ? [lab.ovnRoot, 'ovn-sbctl'] : []), `--db=${lab.sb}`, ...args];
  return execFileSync(lab.ovnRoot ? 'chroot' : 'ovn-sbctl', argv, { encoding: 'utf8' });
}

export const sync = (lab: LabStatus): void => void nbctl(lab, '--wait=hv', '--timeout=30', 'sync');

function run(argv: string[]): Promise<{ status: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => resolve({ status: code ?? -1, stdout }));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** True as soon as one ping answers; `tries` one-second attempts. */
export async function pingFrom(netns: string, address: string, tries: number): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if ((await run(['ip', 'netns', 'exec', netns, 'ping', '-c1', '-W1', address])).status === 0) return true;
    await sleep(200);
  }
  return false;
}

export interface Probe {
  from: string;
  to: string;
  address: string;
}

/** `ns/pod` -> every address of every other `ns/pod` listed, as probes. */
export function probes(lab: LabStatus, pods: string[], family?: 4 | 6): Probe[] {
  const out: Probe[] = [];
  for (const from of pods) {
    for (const to of pods.filter((p) => p !== from)) {
      const [ns, name] = to.split('/') as [string, string];
      for (const address of podIPs(lab, ns, name).filter((a) => family === undefined || a.includes(':') === (family === 6))) out.push({ from, to, address });
    }
  }
  return out;
}

/** The probes whose outcome is not `expected`, as readable lines (empty when all behave). */
export async function misbehaving(lab: LabStatus, list: Probe[], expected: boolean): Promise<string[]> {
  const tries = expected ? 10 : 2;
  const outcomes = await Promise.all(list.map((p) => {
    const [ns, name] = p.from.split('/') as [string, string];
    return pingFrom(podNetns(lab, ns, name), p.address, tries);
  }));
  return list.filter((_, i) => outcomes[i] !== expected).map((p) => `${p.from} -> ${p.to} ${p.address} ${expected ? 'blocked' : 'answered'}`);
}

/** A TCP server in a pod that answers every connection with `reply` (a child of this process). */
export function listen(lab: LabStatus, pod: string, port: number, reply: string): ChildProcess {
  const [ns, name] = pod.split('/') as [string, string];
  const program = `require('net').createServer((s) => s.end(${JSON.stringify(reply + '\n')})).listen(${port}, '::')`;
  return spawn('ip', ['netns', 'exec', podNetns(lab, ns, name), process.execPath, '-e', program], { stdio: 'ignore' });
}

/** What a TCP connection from a pod to `address:port` reads (undefined when none answered). */
export async function request(lab: LabStatus, pod: string, address: string, port: number, tries = 6): Promise<string | undefined> {
  const [ns, name] = pod.split('/') as [string, string];
  for (let i = 0; i < tries; i++) {
    const out = await run(['ip', 'netns', 'exec', podNetns(lab, ns, name), 'nc', '-w2', '-N', address, String(port)]);
    if (out.status === 0 && out.stdout.trim() !== '') return out.stdout.trim();
    await sleep(300);
  }
  return undefined;
}

/** The runtime state `owner` stored in the lab's NB_Global, parsed (undefined when none). */
export function storedState(lab: LabStatus, owner: string): any {
  const text = nbctl(lab, '--if-exists', 'get', 'NB_Global', '.', `external_ids:"ovnk.io/state/${owner}"`).trim();
  return text === '' ? undefined : JSON.parse(JSON.parse(text));
}

/** The lab's northd log from byte `from` on. */
export function northdLog(lab: LabStatus, from = 0): string {
  return readFileSync(path.join(lab.dir, 'central', 'northd.log'), 'utf8').slice(from);
}
