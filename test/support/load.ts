/**
 * The tests' time limits on a machine at rest, stretched by the load (lab/load.ts) when a file
 * starts (test/setup/timeouts.ts).
 */
export { stretchedByLoad } from '../../lab/load';

/** vitest's limits on a machine at rest (vitest.config.ts; test/setup/timeouts.ts stretches them). */
export const QUIET_TEST_TIMEOUT_MS = 60_000;
export const QUIET_HOOK_TIMEOUT_MS = 180_000;
