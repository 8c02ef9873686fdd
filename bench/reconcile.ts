/**
 * `npm run bench -- reconcile`: reconcile of 10,000 unchanged owned Logical_Router_Static_Route
 * rows, observed from a real ovsdb-server, must plan nothing and take under 1 s. Baseline in the
 * same run: JSON.stringify of the same observed rows.
 */
import { apply, observe, planApply, type ApplyRequest } from '../provider/nb/apply';
import type { DesiredRow } from '../provider/nb/desired';
import { nbSchema } from '../provider/nb/generated/nb';
import { OvsdbClient } from '../provider/ovsdb/client';
import { startOvsdbServer } from '../test/support/ovsdbServer';
import { bestOf, figure, note, timed, type Benchmark } from './harness';

const ROUTES = 10_000;

function desiredRoutes(): DesiredRow[] {
  const keys = Array.from({ length: ROUTES }, (_, i) => `bench-route-${i}`);
  return [
    { table: 'Logical_Router', columns: { name: 'bench-lr', static_routes: keys } },
    ...keys.map((key, i) => ({
      table: 'Logical_Router_Static_Route',
      columns: {
        ip_prefix: `10.${i >> 8}.${i & 255}.0/24`,
        nexthop: '100.64.0.2',
        external_ids: { 'ovnk.io/key': key },
      },
    })),
  ];
}

async function run(): Promise<void> {
  const server = await startOvsdbServer();
  const client = await OvsdbClient.connect(server.unix);
  try {
    const request: ApplyRequest = { owner: 'bench', schema: nbSchema, desired: desiredRoutes() };
    const created = await timed(() => apply(client, request));
    note(`apply of ${ROUTES} routes and their router (one transaction): ${created.seconds.toFixed(3)} s`);
    const observed = await timed(() => observe(client, request));
    note(
      `observe (one round trip of selects): ${observed.seconds.toFixed(3)} s, ${observed.value.owned.length} owned rows`,
    );
    const plan = planApply(request, observed.value).plan;
    if (plan.operations.length !== 0)
      throw new Error(`reconcile of unchanged rows planned ${plan.operations.length} operations`);
    const again = await apply(client, request);
    if (again.sent) throw new Error('a second apply of unchanged rows sent a transaction');
    const noop = await bestOf(5, () => planApply(request, observed.value));
    const baseline = await bestOf(5, () => JSON.stringify(observed.value.owned));
    note(`baseline JSON.stringify of the observed rows: ${baseline.toFixed(4)} s`);
    figure('ovsdb.reconcile10k.noop', noop, 's');
    figure('ovsdb.reconcile10k.vs_stringify', noop / baseline, 'x');
  } finally {
    client.close();
    await server.stop();
  }
}

export const reconcileBenchmark: Benchmark = {
  name: 'reconcile',
  description: `reconcile of ${ROUTES} unchanged owned static routes (observed from a real server) plans nothing`,
  run,
};
