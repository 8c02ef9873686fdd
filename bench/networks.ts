/**
 * `npm run bench -- networks`: 50 primary Layer3 networks over 20 nodes (central zone) applied to
 * a fresh ovsdb-server with the installed NB schema, then re-applied with no change and diffed,
 * each through the runtime path the CLI takes (read state, plan, observe, reconcile). Baseline in
 * the same run: `ovsdb-client dump` of that Northbound. Targets: re-apply and diff each under 1.5x
 * the dump and under 1 s.
 */
import { execFileSync } from 'node:child_process';
import { applyZone, closeConnections, nbConnection } from '../provider/runtime/cli';
import { startOvsdbServer } from '../test/support/ovsdbServer';
import { bestOf, figure, note, timed, type Benchmark } from './harness';
import { diffUnchanged, planFrom, reapplyUnchanged } from './zoneRuns';

const NETWORKS = 50;
const NODES = 20;
const OWNER = 'bench-networks';

function topology(): string {
  const nodes = Array.from({ length: NODES }, (_, i) => `  - {name: node-${i + 1}, chassisId: chassis-${i + 1}}`).join(
    '\n',
  );
  const namespaces = Array.from({ length: NETWORKS }, (_, i) => `  - {name: ns-${i}, labels: {net: n${i}}}`).join('\n');
  const inventory = `apiVersion: ovnk/v1alpha1\nkind: Inventory\nmetadata: {name: ${OWNER}}\nspec:\n  zones: central\n  namespaces:\n${namespaces}\n  nodes:\n${nodes}\n`;
  const networks = Array.from(
    { length: NETWORKS },
    (_, i) =>
      `---\napiVersion: k8s.ovn.org/v1\nkind: ClusterUserDefinedNetwork\nmetadata: {name: net-${i}}\nspec:\n  namespaceSelector: {matchLabels: {net: n${i}}}\n  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.${i}.0.0/16, hostSubnet: 24}]}}\n`,
  );
  return inventory + networks.join('');
}

async function run(): Promise<void> {
  const server = await startOvsdbServer();
  try {
    const text = topology();
    const db = await nbConnection(server.unix);
    const first = await timed(async () => {
      const plan = await planFrom(db, text, OWNER);
      return applyZone(db, plan.zones[0]!, OWNER, plan.state);
    });
    note(
      `first apply of ${NETWORKS} Layer3 networks over ${NODES} nodes: ${first.value.operations} operations in ${first.seconds.toFixed(3)} s`,
    );
    const dump = await bestOf(5, () =>
      execFileSync('ovsdb-client', ['dump', server.unix, 'OVN_Northbound'], { maxBuffer: 1 << 28 }),
    );
    note(`baseline ovsdb-client dump of that Northbound: ${dump.toFixed(3)} s`);
    const again = await bestOf(5, () => reapplyUnchanged(db, text, OWNER));
    const drift = await bestOf(5, () => diffUnchanged(db, text, OWNER));
    figure('networks.reapply', again, 's');
    figure('networks.diff', drift, 's');
    figure('networks.reapply.vs_dump', again / dump, 'x');
    figure('networks.diff.vs_dump', drift / dump, 'x');
  } finally {
    await closeConnections();
    await server.stop();
  }
}

export const networksBenchmark: Benchmark = {
  name: 'networks',
  description: `${NETWORKS} Layer3 networks over ${NODES} nodes: no-change re-apply and diff against ovsdb-client dump`,
  run,
};
