/**
 * Pings from a lab namespace (a pod's or a node's) with retries, for tests, benchmarks and the
 * demo: the first packets after a change may be lost while tunnels, flows and IPv6 DAD settle, so
 * a reply is waited for over a number of tries or a time budget. Asynchronous, so that many probes
 * can run at once.
 */
import { spawn } from 'node:child_process';
import { sleep } from './exec';
import { labActivity, labOfNamespace } from './settle';

/** One `ping -c1` from `netns`: true when it was answered within `waitSeconds` (ping's -W). */
export function pingOnce(netns: string, address: string, waitSeconds = 1): Promise<boolean> {
  return new Promise((resolve) => {
    const argv = ['netns', 'exec', netns, 'ping', '-c1', `-W${waitSeconds}`, address];
    const child = spawn('ip', argv, { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

interface RetryPacing {
  /** Milliseconds to wait after an unanswered attempt (default 0). */
  pauseMs?: number;
  /** Seconds one attempt waits for its reply (default 1). */
  waitSeconds?: number;
  /**
   * After the tries or the budget, keep trying while the lab of `netns` is still working through
   * a change (settle.ts): on a loaded machine its ovn-controllers install the flows late.
   */
  whileLabWorks?: boolean;
}

/** How long to keep trying: at most `tries` attempts, and none started `budgetMs` after the first. */
export type PingRetries = RetryPacing & ({ tries: number; budgetMs?: number } | { tries?: number; budgetMs: number });

/** True as soon as one ping answers; false when the tries or the budget ran out first (and the lab rests). */
export async function pingWithRetries(netns: string, address: string, retries: PingRetries): Promise<boolean> {
  const deadline = Date.now() + (retries.budgetMs ?? Infinity);
  const lab = retries.whileLabWorks ? labActivity(labOfNamespace(netns)) : undefined;
  for (let i = 0; ; i++) {
    const budgeted = i < (retries.tries ?? Infinity) && Date.now() < deadline;
    if (!budgeted && !lab?.working()) return false;
    if (await pingOnce(netns, address, retries.waitSeconds)) return true;
    if (retries.pauseMs) await sleep(retries.pauseMs);
  }
}
