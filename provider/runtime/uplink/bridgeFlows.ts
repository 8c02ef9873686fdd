/**
 * A node's gateway bridge flows over SSH (issue 20): read the ofports (`ovs-vsctl list
 * Interface`), render each bridge's flows (provider/uplink/flows.ts), dump the flows carrying a
 * cookie of ours and compare this owner's and the shared ones (provider/uplink/flowShare.ts). On
 * apply, a bridge that differs gets this owner's flows and the shared ones replaced in one bundle
 * (`ovs-ofctl --bundle`, atomically), after waiting up to 30 s for ovn-controller's patch ports as
 * upstream does; a bridge that carries none of this owner's networks any more loses its flows, and
 * the shared ones with the last owner's. Other owners' flows and flows without a cookie of ours
 * (the bridge's own NORMAL, upstream's, a person's) are never touched. A bridge with flows of
 * upstream's cookie is ovnkube-node's (its openflow manager replaces all of the bridge's flows
 * every 15 s, ours included): nothing is written or removed there, and the report says so. Each bridge is read again
 * after a write, and written again when another owner changed it meanwhile, so the report says
 * what is there.
 */
import { commandOutput, type HostRunner } from '../../host';
import type { BridgeFlowReport, NodeFlowResult } from '../../uplink/flowPhase';
import { type BridgeFlowInput, isOurCookie, upstreamCookie } from '../../uplink/flows';
import { bridgeChange } from '../../uplink/flowShare';
import { type DumpedFlow, dumpedFlows } from '../../uplink/flowText';
import type { BridgeIntent } from './flowIntents';

const ofctl = ['ovs-ofctl', '-O', 'OpenFlow13'];
/** Writes made on one bridge in one run before its report says what is left (another owner's writes may race ours). */
const writeAttempts = 3;
/** Upstream waits this long for ovn-controller's patch port. */
export const patchPortWaitMs = 30_000;

/** Interface name -> ofport, for the interfaces that have one. */
async function readOfports(runner: HostRunner): Promise<Map<string, string>> {
  const out = await commandOutput(runner, [
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

/** The bridge's flows of ours, and whether ovnkube-node's (upstream's cookie) are there: one dump of every flow. */
async function readBridge(runner: HostRunner, bridge: string): Promise<{ ours: DumpedFlow[]; upstream: boolean }> {
  const out = await commandOutput(runner, [...ofctl, '--no-stats', '--no-names', 'dump-flows', bridge]);
  const flows = dumpedFlows(out.split('\n'));
  return { ours: flows.filter((f) => isOurCookie(f.cookie)), upstream: flows.some((f) => f.cookie === upstreamCookie) };
}

/** The bridge's flow input with ofports in place; `absent` names the ports the node does not have (yet). */
function render(intent: BridgeIntent, ports: Map<string, string>): { input?: BridgeFlowInput; absent: string[] } {
  const port = (name: string) => (name === 'LOCAL' ? 'LOCAL' : ports.get(name));
  const absent = [intent.physical, intent.host, ...intent.networks.map((n) => n.patch)].filter((p) => !port(p));
  const networks = intent.networks.flatMap((n) =>
    port(n.patch)
      ? [
          {
            network: n.network,
            patchPort: port(n.patch)!,
            ctMark: n.ctMark,
            ...(n.masqIp === undefined ? {} : { gatewayRouterMasqIp: n.masqIp }),
            ...(n.masqIp6 === undefined ? {} : { gatewayRouterMasqIp6: n.masqIp6 }),
            ...n.facts,
          },
        ]
      : [],
  );
  if (!port(intent.physical) || !port(intent.host)) return { absent };
  const defaultPatchPort = intent.defaultPatch === undefined ? undefined : ports.get(intent.defaultPatch);
  const input = {
    physicalPort: port(intent.physical)!,
    hostPort: port(intent.host)!,
    mac: intent.mac,
    ...(intent.ip === undefined ? {} : { ip: intent.ip }),
    ...(intent.ip6 === undefined ? {} : { ip6: intent.ip6 }),
    networks,
    ...(defaultPatchPort === undefined ? {} : { defaultPatchPort }),
    ...intent.facts,
  };
  return { input, absent };
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

async function writeBundle(runner: HostRunner, bridge: string, bundle: string[]): Promise<void> {
  await commandOutput(runner, [...ofctl, '--bundle', 'add-flows', bridge, '-'], { stdin: bundle.join('\n') + '\n' });
}

async function onBridge(
  runner: HostRunner,
  owner: string,
  bridge: string,
  intent: BridgeIntent | undefined,
  ports: Map<string, string>,
  write: boolean,
): Promise<BridgeFlowReport> {
  const wanted = intent ? render(intent, ports) : { absent: [] };
  const networks = intent?.networks.map((n) => n.network) ?? [];
  const found = await readBridge(runner, bridge);
  // ovnkube-node replaces every flow of the bridge every 15 s: its flows are the bridge's, not ours to change
  if (found.upstream) return { bridge, networks, missing: 0, unexpected: 0, written: false, managedBy: 'ovnkube-node' };
  let change = bridgeChange(owner, wanted.input, found.ours);
  let written = false;
  for (let attempt = 0; write && wanted.absent.length === 0 && change.bundle.length > 0; attempt++) {
    if (attempt === writeAttempts) break;
    await writeBundle(runner, bridge, change.bundle);
    written = true;
    change = bridgeChange(owner, wanted.input, (await readBridge(runner, bridge)).ours);
  }
  const error =
    change.conflict !== undefined
      ? change.conflict
      : write && wanted.absent.length > 0
        ? `ports without an ofport on ${bridge}: ${wanted.absent.join(', ')}`
        : undefined;
  const { missing, unexpected } = change;
  return { bridge, networks, missing, unexpected, written, ...(error ? { error } : {}) };
}

function withoutVswitchd(runner: HostRunner): NodeFlowResult {
  const why = 'no interface has an ofport, so no ovs-vswitchd runs there';
  return { ok: false, message: `gateway flows cannot be written on ${runner.describe}: ${why}` };
}

/**
 * Observe (write false) or make (write true) `owner`'s flows of every bridge of the node: those of
 * `intents`, and `others` (bridges that may still carry its flows).
 */
export async function syncNodeFlows(
  runner: HostRunner,
  owner: string,
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
          owner,
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
