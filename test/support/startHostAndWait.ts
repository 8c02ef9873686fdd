/**
 * Run by test/pulumi/host-lifetime.test.ts with vite-node: starts the dynamic-provider host as a
 * test does, prints its pid and its consumer directory, and waits to be killed.
 */
import { linkedConsumer, PulumiHost } from './pulumiHost';

void (async () => {
  const consumer = linkedConsumer();
  const host = await PulumiHost.start(consumer.dir);
  process.stdout.write(`${host.pid} ${consumer.dir}\n`);
  setInterval(() => undefined, 60_000);
})();
