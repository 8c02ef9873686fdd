/**
 * A kill switch in front of a clustered Northbound's members, for tests: one unix-socket proxy
 * per member, so the client under test (a CLI child, the Pulumi provider host) reaches the members
 * only through it. Armed with a rule, it kills the member that receives the first request the
 * rule matches (SIGKILL by the member's pid, as a crash), at a chosen point: before the request
 * reaches the member (nothing of it committed) or after the member's answer to it arrived (it
 * committed; the answer never reaches the client); then it cuts that client's connection. The
 * leader is the member the client writes to, so this kills the leader at an exact step of the
 * protocol, with no hook in the code under test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type KillPoint = 'before-request' | 'after-answer';

export interface KillTarget {
  name: string;
  /** The member's own unix socket. */
  socket: string;
  /** SIGKILL the member by pid and wait until it is gone. */
  kill(): Promise<void>;
}

export interface KillSwitch {
  /** The proxies' `unix:` remotes, comma-separated, in the members' order. */
  remotes: string;
  /** The member killed once the armed rule fired (resolves then). */
  arm(matches: (request: string) => boolean, point: KillPoint): Promise<string>;
  close(): Promise<void>;
}

interface Armed {
  matches: (request: string) => boolean;
  point: KillPoint;
  fired: (name: string) => void;
}

/** One client connection through the proxy of `target`. */
function relay(client: net.Socket, target: KillTarget, armed: () => Armed | undefined, disarm: () => void): void {
  const member = net.connect({ path: target.socket });
  let held: Armed | undefined;
  const cut = async (rule: Armed) => {
    await target.kill();
    client.destroy();
    member.destroy();
    rule.fired(target.name);
  };
  client.on('data', (chunk: Buffer) => {
    const rule = armed();
    if (rule && !held && rule.matches(chunk.toString())) {
      disarm();
      if (rule.point === 'before-request') return void cut(rule);
      held = rule;
    }
    member.write(chunk);
  });
  member.on('data', (chunk: Buffer) => {
    // the member's answer: a reply carrying "result" or "error" (notifications carry "method")
    if (held && /"(result|error)"/.test(chunk.toString())) return void cut(held);
    if (!held) client.write(chunk);
  });
  client.on('error', () => member.destroy());
  member.on('error', () => client.destroy());
  client.on('close', () => member.destroy());
  member.on('close', () => client.destroy());
}

export async function killSwitch(targets: KillTarget[]): Promise<KillSwitch> {
  const dir = mkdtempSync(join(tmpdir(), 'ovnk-kill-'));
  let armed: Armed | undefined;
  const open = new Set<net.Socket>();
  const servers = await Promise.all(
    targets.map(async (target, i) => {
      const server = net.createServer((client) => {
        open.add(client.once('close', () => open.delete(client)));
        relay(
          client,
          target,
          () => armed,
          () => (armed = undefined),
        );
      });
      const path = join(dir, `m${i}.sock`);
      await new Promise<void>((resolve) => server.listen(path, resolve));
      return { server, path };
    }),
  );
  return {
    remotes: servers.map((s) => `unix:${s.path}`).join(','),
    arm: (matches, point) => new Promise((fired) => (armed = { matches, point, fired })),
    close: async () => {
      for (const socket of open) socket.destroy();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.server.close(resolve))));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
