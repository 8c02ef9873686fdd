/**
 * Vitest setup file (every test file): the file's default test and hook timeouts are vitest.config.ts's
 * quiet-machine limits stretched by the load when the file starts (test/support/load.ts). Why: on a
 * machine busy with other work a CPU-bound test (the property tests, a plan of a large file) runs
 * as many times slower as there are runnable processes per core, and a fixed limit then fails a
 * test that is only waiting for its share of the CPU (seen: a 5 s property test took 86 s at load 50).
 * Limits a test gives itself are its own.
 */
import { vi } from 'vitest';
import { QUIET_HOOK_TIMEOUT_MS, QUIET_TEST_TIMEOUT_MS, stretchedByLoad } from '../support/load';

vi.setConfig({
  testTimeout: stretchedByLoad(QUIET_TEST_TIMEOUT_MS),
  hookTimeout: stretchedByLoad(QUIET_HOOK_TIMEOUT_MS),
});
