/**
 * Observing a node for the VRF plan through its HostRunner (argv only): links, routes of both
 * families in every table, the interface the SSH session arrives on (from SSH_CONNECTION and
 * `ip route get`), IPv6 and VRF support, and the membership records we left in /run/ovnk/vrf.
 */
import type { HostRunner } from '../../host';
import {
  type OwnedMembership,
  MEMBERSHIP_DIR,
  parseLinks,
  parseRoutes,
  routeGetDev,
  type VrfHostFacts,
} from '../../uplink/vrf';
import { VrfHostError } from './errors';

async function output(runner: HostRunner, argv: string[]): Promise<string> {
  const result = await runner.run(argv);
  if (result.exitCode !== 0)
    throw new VrfHostError(runner.describe, argv, result.stderr.trim() || `exit ${result.exitCode}`);
  return result.stdout;
}

/** The interface this SSH session uses: the route back to the client address in SSH_CONNECTION. */
export async function managementInterface(runner: HostRunner): Promise<string | undefined> {
  const connection = (await runner.run(['printenv', 'SSH_CONNECTION'])).stdout.trim();
  const client = connection.split(/\s+/)[0];
  if (!client) return undefined;
  return routeGetDev(await output(runner, ['ip', '-j', 'route', 'get', client]));
}

async function memberships(runner: HostRunner): Promise<OwnedMembership[]> {
  const script = 'for f in "$1"/*.json; do [ -f "$f" ] && cat "$f"; done; true';
  const text = await output(runner, ['sh', '-c', script, 'sh', MEMBERSHIP_DIR]);
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as OwnedMembership);
}

/** `loaded` when the kernel has VRF (module loaded or built in), `loadable` when modprobe finds it, else `absent`. */
async function vrfSupport(runner: HostRunner): Promise<'loaded' | 'loadable' | 'absent'> {
  const script =
    'if [ -d /sys/module/vrf ]; then echo loaded; elif modprobe -n -q vrf 2>/dev/null; then echo loadable; else echo absent; fi';
  const answer = (await output(runner, ['sh', '-c', script])).trim();
  return answer === 'loaded' || answer === 'loadable' ? answer : 'absent';
}

export async function observeVrfHost(runner: HostRunner, node: string): Promise<VrfHostFacts> {
  const links = parseLinks(await output(runner, ['ip', '-j', '-d', 'link', 'show']));
  const v4 = parseRoutes(await output(runner, ['ip', '-j', '-N', '-4', 'route', 'show', 'table', 'all']), 4);
  const ipv6 = (await runner.run(['test', '-d', '/proc/sys/net/ipv6'])).exitCode === 0;
  const v6 = ipv6
    ? parseRoutes(await output(runner, ['ip', '-j', '-N', '-6', 'route', 'show', 'table', 'all']), 6)
    : [];
  const mgmt = await managementInterface(runner);
  return {
    node,
    links,
    routes: [...v4, ...v6],
    ipv6,
    memberships: await memberships(runner),
    vrfSupport: await vrfSupport(runner),
    ...(mgmt ? { managementInterface: mgmt } : {}),
  };
}
