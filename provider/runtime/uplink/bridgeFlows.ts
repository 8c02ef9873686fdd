/**
 * A node's gateway bridge flows over SSH (issue 20): read the ofports (`ovs-vsctl list
 * Interface`), render each bridge's flows (provider/uplink/flows.ts), dump the flows carrying our
 * cookie and compare. On apply, a bridge that differs gets all our flows replaced in one bundle
 * (`ovs-ofctl --bundle`: delete ours, add the new, atomically), after waiting up to 30 s for
 * ovn-controller's patch ports as upstream does; a bridge that carries no network any more loses
 * ours. Flows without our cookie (the bridge's own NORMAL, upstream's, a person's) are never
 * touched. Each bridge is read again after a write, so the report says what is there.
 */
import type { HostRunner } from '../../host';
import type { BridgeFlowReport, NodeFlowResult } from '../../uplink/flowPhase';
import { bridgeFlows, flowCookie } from '../../uplink/flows';
import { canonicalFlows } from '../../uplink/flowText';
import type { BridgeIntent } from './flowIntents';

const ofctl = ['ovs-ofctl', '-O', 'OpenFlow13'];
const ours = `cookie=${flowCookie}/-1`;
/** Upstream waits this long for ovn-controller's patch port. */
export const patchPortWaitMs = 30_000;

async function run(runner: HostRunner, argv: string[], stdin?: string): Promise<string> {
  const result = await runner.run(argv, stdin === undefined ? {} : { stdin });
  if (result.exitCode !== 0)
    throw new Error(
      `${argv.join(' ')} on ${runner.describe} failed (exit ${result.exitCode}): ${result.stderr.trim()}`,
    );
  return result.stdout;
}

/** Interface name -> ofport, for the interfaces that have one. */
async function readOfports(runner: HostRunner): Promise<Map<string, string>> {
  const out = await run(runner, [
    'ovs-vsctl',
    '--timeout=15',
    '--format=csv',
    '--no-headings',
    '--columns=name,ofport',
    'list',
    'Interface',
  ]);
  const ports = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [name, ofport] = line.split(',').map((x) => x.replace(/^"|"$/g, ''));
    if (name && ofport && /^\d+$/.test(ofport) && ofport !== '0') ports.set(name, ofport);
  }
  return ports;
}

async function readOurs(runner: HostRunner, bridge: string): Promise<string[]> {
  const out = await run(runner, [...ofctl, '--no-stats', '--no-names', 'dump-flows', bridge, ours]);
  return canonicalFlows(out.split('\n'));
}

/** The bridge's flows with ofports in place; `absent` names the ports the node does not have (yet). */
function render(
  intent: BridgeIntent,
  ports: Map<string, string>,
): { raw: string[]; flows: string[]; absent: string[] } {
  const port = (name: string) => (name === 'LOCAL' ? 'LOCAL' : ports.get(name));
  const absent = [intent.physical, intent.host, ...intent.networks.map((n) => n.patch)].filter((p) => !port(p));
  const networks = intent.networks.flatMap((n) =>
    port(n.patch)
      ? [{ network: n.network, patchPort: port(n.patch)!, ctMark: n.ctMark, gatewayRouterMasqIp: n.masqIp }]
      : [],
  );
  if (!port(intent.physical) || !port(intent.host)) return { raw: [], flows: [], absent };
  const raw = bridgeFlows({
    physicalPort: port(intent.physical)!,
    hostPort: port(intent.host)!,
    mac: intent.mac,
    ip: intent.ip,
    networks,
  });
  return { raw, flows: canonicalFlows(raw), absent };
}

function difference(want: string[], have: string[]): { missing: number; unexpected: number } {
  const w = new Set(want);
  const h = new Set(have);
  return { missing: want.filter((f) => !h.has(f)).length, unexpected: have.filter((f) => !w.has(f)).length };
}

/** The ofports once every intent's ports have one, or as they are at the deadline; `first` is a read just made. */
async function waitForPorts(
  runner: HostRunner,
  intents: BridgeIntent[],
  first: Map<string, string>,
  waitMs: number,
): Promise<Map<string, string>> {
  const deadline = Date.now() + waitMs;
  for (let ports = first; ; ports = await readOfports(runner)) {
    if (intents.every((i) => render(i, ports).absent.length === 0) || Date.now() >= deadline) return ports;
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function replaceOurs(runner: HostRunner, bridge: string, flows: string[]): Promise<void> {
  const bundle = [`delete ${ours}`, ...flows.map((f) => `add ${f}`)].join('\n') + '\n';
  await run(runner, [...ofctl, '--bundle', 'add-flows', bridge, '-'], bundle);
}

async function onBridge(
  runner: HostRunner,
  bridge: string,
  intent: BridgeIntent | undefined,
  ports: Map<string, string>,
  write: boolean,
): Promise<BridgeFlowReport> {
  const wanted = intent ? render(intent, ports) : { raw: [], flows: [], absent: [] };
  const networks = intent?.networks.map((n) => n.network) ?? [];
  let have = await readOurs(runner, bridge);
  let written = false;
  let diff = difference(wanted.flows, have);
  if (write && diff.missing + diff.unexpected > 0 && wanted.absent.length === 0) {
    await replaceOurs(runner, bridge, wanted.raw);
    written = true;
    have = await readOurs(runner, bridge);
    diff = difference(wanted.flows, have);
  }
  const error =
    write && wanted.absent.length > 0 ? `ports without an ofport on ${bridge}: ${wanted.absent.join(', ')}` : undefined;
  return { bridge, networks, ...diff, written, ...(error ? { error } : {}) };
}

function withoutVswitchd(runner: HostRunner): NodeFlowResult {
  const why = 'no interface has an ofport, so no ovs-vswitchd runs there';
  return { ok: false, message: `gateway flows cannot be written on ${runner.describe}: ${why}` };
}

/**
 * Observe (write false) or make (write true) the flows of every bridge of the node: those of
 * `intents`, and `others` (bridges that may still carry ours).
 */
export async function syncNodeFlows(
  runner: HostRunner,
  intents: BridgeIntent[],
  others: string[],
  write: boolean,
  waitMs = patchPortWaitMs,
): Promise<NodeFlowResult> {
  try {
    // vswitchd gives every interface an ofport: with none, none of ours can exist, nor can be written
    const found = await readOfports(runner);
    if (found.size === 0) return intents.length === 0 ? { ok: true, bridges: [] } : withoutVswitchd(runner);
    const ports = write ? await waitForPorts(runner, intents, found, waitMs) : found;
    const bridges = [...new Set([...intents.map((i) => i.bridge), ...others])].sort();
    const reports = await Promise.all(
      bridges.map((b) =>
        onBridge(
          runner,
          b,
          intents.find((i) => i.bridge === b),
          ports,
          write,
        ),
      ),
    );
    return { ok: true, bridges: reports };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
