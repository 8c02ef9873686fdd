/**
 * One SSH runner per host (user@host:port), shared by every caller, and closing them all at once.
 */
import { describeTarget, SshHostRunner, type SshTarget } from './ssh';

export class HostPool {
  private readonly runners = new Map<string, SshHostRunner>();

  /** The runner of this target; the first call's settings win for later calls with the same key. */
  runner(target: SshTarget): SshHostRunner {
    const key = describeTarget(target);
    let runner = this.runners.get(key);
    if (!runner) {
      runner = new SshHostRunner(target);
      this.runners.set(key, runner);
    }
    return runner;
  }

  get size(): number {
    return this.runners.size;
  }

  async closeAll(): Promise<void> {
    const runners = [...this.runners.values()];
    this.runners.clear();
    await Promise.all(runners.map((r) => r.close()));
  }
}
