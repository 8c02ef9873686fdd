/**
 * Helpers of the NetworkConnect packet tests: topology files of stacks/ (and variants of them
 * written to a temp dir), pings run concurrently from pod namespaces, TCP requests, a listener
 * in a pod, the runtime state an owner stored in NB_Global, and the lab's ovn-sbctl.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll } from 'vitest';
import { nbctlWhileLabWorks, pingOnce, pingWithRetries, readState, sbctl, type LabStatus } from '../../lab';
import { nbctl, podIPs, podNetns, syncChassis } from './networks-helpers';

export { sbctl };

export const stack = (name: string): string => path.resolve(__dirname, '../../stacks', name);

// Made on first use; removed when the test file that imports these helpers ends.
let tempDir: string | undefined;
afterAll(() => {
  if (tempDir !== undefined) rmSync(tempDir, { recursive: true, force: true });
  tempDir = undefined;
});
function variantsDir(): string {
  tempDir ??= mkdtempSync(path.join(os.tmpdir(), 'ovnk-connect-test-'));
  return tempDir;
}

/** A variant of a stacks/ file: each [from, to] replaced exactly once (a missing text throws). */
export function variant(base: string, name: string, edits: [string, string][]): string {
  let text = readFileSync(stack(base), 'utf8');
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`${base} has no text ${JSON.stringify(from)}`);
    text = text.replace(from, to);
  }
  const file = path.join(variantsDir(), name);
  writeFileSync(file, text);
  return file;
}

export const sync = (lab: LabStatus): void => syncChassis(lab);

function run(argv: string[]): Promise<{ status: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => resolve({ status: code ?? -1, stdout }));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * How long one probe may take in all; attempts repeat until it is decided (a loaded machine delays,
 * it does not lose).
 */
const PROBE_BUDGET_MS = 20_000;
/** Probes running at once: enough to be quick, few enough that two cores are not swamped by ping processes. */
const PROBES_AT_ONCE = 12;

/** True as soon as one ping answers within `budgetMs`. */
export const pingFrom = (netns: string, address: string, budgetMs = PROBE_BUDGET_MS): Promise<boolean> =>
  pingWithRetries(netns, address, { budgetMs, pauseMs: 200, whileLabWorks: true });

/**
 * True when `settled` pings in a row go unanswered within `budgetMs`: a datapath flow cached
 * from before the change may answer once right after `--wait=hv sync`, an open path keeps answering.
 */
export async function blockedFrom(
  netns: string,
  address: string,
  settled = 2,
  budgetMs = PROBE_BUDGET_MS,
): Promise<boolean> {
  const deadline = Date.now() + budgetMs;
  let unanswered = 0;
  do {
    unanswered = (await pingOnce(netns, address)) ? 0 : unanswered + 1;
    if (unanswered >= settled) return true;
  } while (Date.now() < deadline);
  return false;
}

/**
 * Waits until northd saw the ports of these `ns/pod`s up (ovn-controller claimed them), then for
 * every chassis's flows.
 */
export function ready(lab: LabStatus, pods: string[]): void {
  const wanted = new Set(pods);
  const ports = (readState(lab.name)?.pods ?? [])
    .filter((p) => wanted.has(`${p.namespace}/${p.name}`))
    .map((p) => String(p.ifaceId));
  const waits = ports.flatMap((port, i) => [
    ...(i > 0 ? ['--'] : []),
    'wait-until',
    'Logical_Switch_Port',
    port,
    'up=true',
  ]);
  if (waits.length > 0) nbctlWhileLabWorks(lab, ...waits);
  sync(lab);
}

/** Runs `work` over `items` with at most `width` at once, results in order. */
async function pooled<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
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
      for (const address of podIPs(lab, ns, name).filter(
        (a) => family === undefined || a.includes(':') === (family === 6),
      ))
        out.push({ from, to, address });
    }
  }
  return out;
}

/**
 * The probes whose outcome is not `expected`, as readable lines (empty when all behave). Ports
 * up and flows synced first; then each probe retries within its time budget: an expected reply
 * needs one answer, an expected block two unanswered pings in a row.
 */
export async function misbehaving(lab: LabStatus, list: Probe[], expected: boolean): Promise<string[]> {
  ready(
    lab,
    list.flatMap((p) => [p.from, p.to]),
  );
  const outcomes = await pooled(list, PROBES_AT_ONCE, (p) => {
    const [ns, name] = p.from.split('/') as [string, string];
    const netns = podNetns(lab, ns, name);
    return expected ? pingFrom(netns, p.address) : blockedFrom(netns, p.address).then((blocked) => !blocked);
  });
  return list
    .filter((_, i) => outcomes[i] !== expected)
    .map((p) => `${p.from} -> ${p.to} ${p.address} ${expected ? 'blocked' : 'answered'}`);
}

/** A TCP server in a pod that answers every connection with `reply` (a child of this process). */
export function listen(lab: LabStatus, pod: string, port: number, reply: string): ChildProcess {
  const [ns, name] = pod.split('/') as [string, string];
  const program = `require('net').createServer((s) => s.end(${JSON.stringify(reply + '\n')})).listen(${port}, '::')`;
  return spawn('ip', ['netns', 'exec', podNetns(lab, ns, name), process.execPath, '-e', program], { stdio: 'ignore' });
}

/** What a TCP connection from a pod to `address:port` reads (undefined when none answered). */
export async function request(
  lab: LabStatus,
  pod: string,
  address: string,
  port: number,
  tries = 6,
): Promise<string | undefined> {
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

/**
 * The northd warnings upstream's own rows draw:
 * - a UDN gateway router's rtoe port carries the node IP and the GR masquerade /32 with
 *   lb_force_snat_ip=router_ip (udn-topology-upstream.md section 2), and northd says it SNATs
 *   load-balancer traffic to the first IPv4 only;
 * - a Layer2 network's trtos- port has a gateway chassis and requested-tnl-key=1 (upstream's
 *   layer2 test expectedLayer2EgressEntities), so northd's chassis-redirect port cr-trtos-
 *   inherits the request and northd says the key is asked twice (cr-trtos- gets another one).
 */
export const upstreamFaithfulWarnings = [
  /\|WARN\|Logical router port "rtoe-GR_[^"]+" is configured with multiple IPv4 addresses\.\s+Only the first IP \[[0-9.]+\] is considered as SNAT for load balancer$/,
  /\|WARN\|Logical router port trtos-\S+_ovn_layer2_switch requests same tunnel key 1 as another LSP or LRP$/,
];

/**
 * OVS's own module `timeval` (and its stopwatch thread) warns about the machine, not the rows: a
 * poll interval stretched by a loaded machine ("Unreasonably long 1438ms poll interval") and the
 * page faults, disk reads and context switches it counted meanwhile (lib/timeval.c log_poll_interval).
 */
const MACHINE_LOAD_WARNING = /\|timeval(\([^)]*\))?\|WARN\|/;

/**
 * The warnings and errors of a northd log but the upstream-faithful ones and the machine's load:
 * any other about our rows is a failure.
 */
export function northdComplaints(log: string): string[] {
  return log
    .split('\n')
    .filter((l) => /\|(WARN|ERR|EMER)\|/.test(l))
    .filter((l) => !MACHINE_LOAD_WARNING.test(l))
    .filter((l) => !upstreamFaithfulWarnings.some((w) => w.test(l)));
}

/** The lab's northd log from byte `from` on. */
export function northdLog(lab: LabStatus, from = 0): string {
  return readFileSync(path.join(lab.dir, 'central', 'northd.log'), 'utf8').slice(from);
}
