/**
 * One SSH runner per host (user@host:port) and trust settings, shared by every caller, and closing
 * them all at once.
 */
import { credentialDigest } from './credentials';
import { describeTarget, SshHostRunner, type SshTarget } from './ssh';

/**
 * Who a connection logs in as and which host keys it trusts, as a digest (kept in memory only):
 * two callers that differ in any of them (two clusters of one program) never share a runner, so
 * the second one's host-key pin is never skipped and it never rides on the first one's key.
 */
export function trustKey(target: SshTarget): string {
  const { keyPath, privateKey, passphrase, agent, hostKey, acceptUnknownHostKey } = target;
  const trust = [keyPath, privateKey?.toString(), passphrase, agent, hostKey, acceptUnknownHostKey === true];
  return `${describeTarget(target)}#${credentialDigest(JSON.stringify(trust))}`;
}

export class HostPool {
  private readonly runners = new Map<string, SshHostRunner>();

  /** The runner of this target; the first call's timeouts win for later calls with the same trust. */
  runner(target: SshTarget): SshHostRunner {
    const key = trustKey(target);
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
