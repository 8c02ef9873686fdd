/**
 * Waiting until the lab is usable: every sshd sends its SSH banner and every node's chassis is
 * registered in the Southbound. Errors name what did not come up and where its log is.
 */
import * as net from 'node:net';
import { failing } from './errors';
import { exec, inRoot, sleep } from './exec';

/** Resolves true once the server at host:port sends an `SSH-` banner. */
function sshBanner(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('data', (data) => done(data.toString('latin1').startsWith('SSH-')));
    socket.once('error', () => done(false));
  });
}

export async function waitForSsh(host: string, port: number, deadline: number, logHint: string): Promise<void> {
  while (!(await sshBanner(host, port, 500))) {
    if (Date.now() > deadline) throw failing(`sshd at ${host}:${port} did not answer in time; see ${logHint}`);
    await sleep(10);
  }
}

export async function registeredChassis(sbSocket: string, root: string | undefined): Promise<Set<string>> {
  const listed = await exec(
    inRoot(root, ['ovn-sbctl', `--db=unix:${sbSocket}`, '--bare', '--columns=name', 'list', 'Chassis']),
  );
  return new Set(listed.stdout.split(/\s+/).filter(Boolean));
}

export async function waitForChassis(
  sbSocket: string,
  root: string | undefined,
  chassisIds: string[],
  deadline: number,
): Promise<void> {
  for (;;) {
    const present = await registeredChassis(sbSocket, root);
    const missing = chassisIds.filter((id) => !present.has(id));
    if (missing.length === 0) return;
    if (Date.now() > deadline)
      throw failing(
        `chassis ${missing.join(', ')} did not register in the Southbound in time; see the nodes' ovn-controller.log`,
      );
    await sleep(20);
  }
}
