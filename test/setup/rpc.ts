/**
 * Vitest setup file (every test file): no test or file hook starts while one of vitest's worker
 * calls to the main process is unanswered. Why: the worker sends each test's state to the main
 * process (`onTaskUpdate`) and times the answer with a hard-coded 60 s timer; a test that then
 * blocks the worker's event loop with synchronous work (`spawnSync` of the CLI, `execFileSync`)
 * for 60 s leaves the answer unread, the timer fires first, and the run ends with
 * "[vitest-worker]: Timeout calling onTaskUpdate" although the main process answered at once
 * (a 65 s `spawnSync` after one test reproduces it every time; under load a few CLI runs in a
 * row take that long). Waiting for the answer before each test and each file's hooks means
 * synchronous work never runs while the timer counts.
 *
 * vitest reads its worker state (`globalThis.__vitest_worker__`) each time it calls the main
 * process, so wrapping its `rpc` there sees every call.
 */
import { beforeAll, beforeEach } from 'vitest';

type Rpc = Record<string | symbol, unknown>;
interface WorkerState {
  rpc: Rpc;
  ovnkInFlight?: Set<Promise<unknown>>;
}

const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__;
if (state && !state.ovnkInFlight) {
  const inFlight = new Set<Promise<unknown>>();
  const calls = state.rpc;
  state.ovnkInFlight = inFlight;
  state.rpc = new Proxy(calls, {
    get(target, name) {
      const value = target[name];
      if (typeof value !== 'function') return value;
      const call = (...args: unknown[]) => {
        const answer = (value as (...a: unknown[]) => unknown)(...args);
        if (!(answer instanceof Promise)) return answer;
        inFlight.add(answer);
        const forget = () => inFlight.delete(answer);
        answer.then(forget, forget);
        return answer;
      };
      return Object.assign(call, value);
    },
  });
}

/** Until vitest's calls so far are answered (their own errors are vitest's to report). */
async function answered(): Promise<void> {
  const inFlight = state?.ovnkInFlight;
  while (inFlight && inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

beforeAll(answered);
beforeEach(answered);
