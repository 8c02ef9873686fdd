/**
 * Northbound-only zones started on demand, as systemd's socket activation starts a service: the
 * bench listens on one unix socket per zone; a connection there starts that zone's real
 * ovsdb-server (bench/nbZones.ts: OVN_Northbound, NB_Global named after the node; no Southbound
 * or northd, which `apply` never reads) on the zone's database file, and the bench relays bytes
 * both ways, nothing else (it neither reads nor changes them). When the zone's last connection
 * closes, the server's peak resident memory (VmHWM) and CPU time are recorded and it is stopped
 * by its pid; its database file stays (the caller removes the directory), so a later connection
 * finds what the zone held. Only the zones a
 * client holds have a server: a CLI run over 500 zones, which holds at most `--parallel` of them
 * (cli/commands/zoneRuns.ts), runs with that many servers alive instead of 500 (a 500-node
 * zone's Northbound peaks at about 166 MiB: 80 GB for all of them at once).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { type OvsdbServer, serveDatabase } from '../test/support/ovsdbServer';
import { cpuSecondsOf } from '../test/support/processCpu';
import { labSchema, nameZone, residentMiB } from './nbZones';

const run = promisify(execFile);

interface Zone {
  name: string;
  db: string;
  server?: OvsdbServer;
  /** Connections open now. */
  clients: number;
  /** Starts and stops, one after the other. */
  turn: Promise<void>;
}

/** What the zones' servers did: every start, the largest peak, CPU and the most alive at once. */
export interface ActivationStats {
  starts: number;
  /** The largest VmHWM of any server (MiB). */
  peakMiB: number;
  /** CPU seconds of every server, summed over their lives. */
  cpu: number;
  /** The most servers alive at one time. */
  mostAlive: number;
  /** Zones that failed to start a server (their clients were disconnected). */
  failedStarts: number;
}

export interface ActivatedZones {
  /** `unix:` endpoint of each zone, by node name. */
  endpoints: Map<string, string>;
  stats: ActivationStats;
  /** Stops listening and every server still alive (by its pid); the files stay in the caller's directory. */
  stop(): Promise<void>;
}

/** Zones `names`, listening in `dir`, each zone's database and server files in `dir/<name>/`. */
export async function activatedZones(dir: string, names: string[]): Promise<ActivatedZones> {
  const schema = labSchema();
  const stats: ActivationStats = { starts: 0, peakMiB: 0, cpu: 0, mostAlive: 0, failedStarts: 0 };
  let alive = 0;

  const serialized = (zone: Zone, step: () => Promise<void>): Promise<void> => {
    const next = zone.turn.then(step);
    zone.turn = next.catch(() => undefined);
    return next;
  };

  const start = async (zone: Zone): Promise<void> => {
    if (zone.server) return;
    const fresh = !existsSync(zone.db);
    if (fresh) await run('ovsdb-tool', ['create', zone.db, schema]);
    zone.server = await serveDatabase(zone.db);
    stats.starts++;
    stats.mostAlive = Math.max(stats.mostAlive, ++alive);
    if (fresh) await nameZone(zone.server, zone.name);
  };

  const stopIdle = async (zone: Zone): Promise<void> => {
    const server = zone.server;
    if (zone.clients > 0 || !server) return;
    stats.peakMiB = Math.max(stats.peakMiB, residentMiB(server.pid).peak);
    stats.cpu += cpuSecondsOf(server.pid);
    zone.server = undefined;
    alive--;
    await server.stop();
  };

  const relay = (zone: Zone, client: net.Socket): void => {
    zone.clients++;
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      client.destroy();
      if (--zone.clients === 0) void serialized(zone, () => stopIdle(zone));
    };
    client.on('error', close).on('close', close);
    serialized(zone, () => start(zone)).then(
      () => {
        if (closed) return;
        const upstream = net.connect(zone.server!.socketPath);
        upstream.on('error', () => client.destroy()).on('close', () => client.destroy());
        client.on('close', () => upstream.destroy());
        client.pipe(upstream).pipe(client);
        client.resume();
      },
      () => {
        stats.failedStarts++;
        close();
      },
    );
  };

  const zones = names.map((name): Zone => {
    mkdirSync(path.join(dir, name));
    return { name, db: path.join(dir, name, 'nb.db'), clients: 0, turn: Promise.resolve() };
  });
  const listeners: net.Server[] = [];
  const endpoints = new Map<string, string>();
  const stop = async () => {
    await Promise.all(listeners.map((l) => new Promise((resolve) => l.close(resolve))));
    await Promise.all(zones.map((z) => z.turn.then(() => z.server?.stop())));
  };
  for (const zone of zones) {
    const socket = path.join(dir, `${zone.name}.relay.sock`);
    const listener = net.createServer({ pauseOnConnect: true }, (client) => relay(zone, client));
    listeners.push(listener);
    await new Promise<void>((resolve, reject) => listener.once('error', reject).listen(socket, resolve));
    endpoints.set(zone.name, `unix:${socket}`);
  }
  return { endpoints, stats, stop };
}
