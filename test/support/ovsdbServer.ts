/**
 * Starts real ovsdb-servers for tests: a standalone database (unix socket, tcp on an ephemeral
 * loopback port, optionally ssl with certificates made here); RAFT clusters are ovsdbCluster.ts's,
 * from the same pieces. Servers are children of this process (no --detach) so node reaps them; stop()
 * kills by pid and removes the temp dir (KEEP_TEST_ENV=1 keeps it and prints where it is).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Operation } from '../../provider/ovsdb/notation';
import type { TlsMaterial } from '../../provider/ovsdb/transport';

export const run = promisify(execFile);

/** The Debian package's NB schema (7.0.0 on bookworm). */
export const NB_SCHEMA = '/usr/share/ovn/ovn-nb.ovsschema';

export interface OvsdbServer {
  dir: string;
  pid: number;
  socketPath: string;
  /** `unix:<socket>` */
  unix: string;
  /** `tcp:127.0.0.1:<port>` */
  tcp: string;
  tcpPort: number;
  /** `ssl:127.0.0.2:<port>` when started with ssl (its own loopback address tells its log line apart). */
  ssl?: string;
  /** Client key, certificate and CA for the ssl remote. */
  tls?: TlsMaterial;
  /** A CA that did not sign the server's certificate (for refusal tests). */
  otherCa?: string;
  child: ChildProcess;
  /** SIGKILL, wait for the exit (a crash, as far as clients can tell). */
  kill(): Promise<void>;
  /** SIGTERM, wait for the exit, remove the temp dir. */
  stop(): Promise<void>;
}

export interface ServerOptions {
  schema?: string;
  ssl?: boolean;
  /** Extra --remote values, e.g. `db:...` */
  remotes?: string[];
  /** A database file to serve (copied; a restart of the server that wrote it), instead of a new one. */
  from?: string;
}

/**
 * Until the server logs `pattern`, for as long as it runs (a loaded machine starts it late; one that
 * exited never will; the calling hook's timeout bounds a server that hangs).
 */
async function waitForLog(logPath: string, pattern: RegExp, child: ChildProcess): Promise<RegExpExecArray> {
  for (;;) {
    const log = await fs.readFile(logPath, 'utf8').catch(() => '');
    const match = pattern.exec(log);
    if (match) return match;
    if (child.exitCode !== null) {
      throw new Error(`ovsdb-server did not log ${pattern} (exit ${child.exitCode}); log:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * ovsdb-server opens its remotes in one pass, in hash order, and logs only the tcp ones: the unix
 * socket may be bound after the tcp port was logged, and refuses connections (ECONNREFUSED)
 * between its bind and its listen. A loaded machine can stop the server in that gap, so connect
 * until the socket accepts, for as long as the server runs.
 */
async function waitForSocket(socketPath: string, child: ChildProcess): Promise<void> {
  for (;;) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = net.connect(socketPath);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (accepted) return;
    if (child.exitCode !== null)
      throw new Error(`ovsdb-server never accepted a connection on ${socketPath} (exit ${child.exitCode})`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function waitExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function makeCertificates(dir: string): Promise<{ server: string[]; tls: TlsMaterial; otherCa: string }> {
  const file = (name: string) => path.join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const ca = async (name: string) =>
    run('openssl', [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      file(`${name}-key.pem`),
      '-out',
      file(`${name}-cert.pem`),
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
    ]);
  const leaf = async (name: string) => {
    await run('openssl', [
      'req',
      ...ec,
      '-keyout',
      file(`${name}-key.pem`),
      '-out',
      file(`${name}-req.pem`),
      '-subj',
      `/CN=${name}`,
    ]);
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      file(`${name}-req.pem`),
      '-CA',
      file('ca-cert.pem'),
      '-CAkey',
      file('ca-key.pem'),
      '-CAcreateserial',
      '-out',
      file(`${name}-cert.pem`),
      '-days',
      '2',
    ]);
  };
  await ca('ca');
  await ca('other-ca');
  await leaf('server');
  await leaf('client');
  const read = (name: string) => fs.readFile(file(name), 'utf8');
  return {
    server: [
      `--private-key=${file('server-key.pem')}`,
      `--certificate=${file('server-cert.pem')}`,
      `--ca-cert=${file('ca-cert.pem')}`,
    ],
    tls: { key: await read('client-key.pem'), cert: await read('client-cert.pem'), ca: await read('ca-cert.pem') },
    otherCa: await read('other-ca-cert.pem'),
  };
}

interface Spawned {
  child: ChildProcess;
  tcpPort: number;
  sslPort?: number;
}

export async function spawnServer(
  dir: string,
  db: string,
  name: string,
  extra: string[],
  ssl: boolean,
): Promise<Spawned> {
  const log = path.join(dir, `${name}.log`);
  const args = [
    db,
    `--remote=punix:${path.join(dir, `${name}.sock`)}`,
    '--remote=ptcp:0:127.0.0.1',
    ...(ssl ? ['--remote=pssl:0:127.0.0.2'] : []),
    `--unixctl=${path.join(dir, `${name}.ctl`)}`,
    `--log-file=${log}`,
    '--no-chdir',
    ...extra,
  ];
  const child = spawn('ovsdb-server', args, { stdio: 'ignore' });
  try {
    const tcp = await waitForLog(log, /0:127\.0\.0\.1: listening on port (\d+)/, child);
    const sslMatch = ssl ? await waitForLog(log, /0:127\.0\.0\.2: listening on port (\d+)/, child) : undefined;
    await waitForSocket(path.join(dir, `${name}.sock`), child);
    return { child, tcpPort: Number(tcp[1]), sslPort: sslMatch ? Number(sslMatch[1]) : undefined };
  } catch (error) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await waitExit(child);
    throw error;
  }
}

export async function removeDir(dir: string): Promise<void> {
  if (process.env.KEEP_TEST_ENV === '1') process.stderr.write(`KEEP_TEST_ENV: ovsdb-server files kept in ${dir}\n`);
  else await fs.rm(dir, { recursive: true, force: true });
}

export function serverHandle(dir: string, name: string, spawned: Spawned, ownsDir: boolean): OvsdbServer {
  const socketPath = path.join(dir, `${name}.sock`);
  const { child } = spawned;
  return {
    dir,
    pid: child.pid as number,
    socketPath,
    unix: `unix:${socketPath}`,
    tcp: `tcp:127.0.0.1:${spawned.tcpPort}`,
    tcpPort: spawned.tcpPort,
    ssl: spawned.sslPort ? `ssl:127.0.0.2:${spawned.sslPort}` : undefined,
    child,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid as number, 'SIGKILL');
      await waitExit(child);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid as number, 'SIGTERM');
      await waitExit(child);
      if (ownsDir) await removeDir(dir);
    },
  };
}

/** A standalone database from `schema` (default: the installed NB schema) in a fresh temp dir. */
export async function startOvsdbServer(options: ServerOptions = {}): Promise<OvsdbServer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ovnk-ovsdb-'));
  try {
    const db = path.join(dir, 'db.db');
    if (options.from !== undefined) await fs.copyFile(options.from, db);
    else await run('ovsdb-tool', ['create', db, options.schema ?? NB_SCHEMA]);
    const certs = options.ssl ? await makeCertificates(dir) : undefined;
    const extra = [...(certs?.server ?? []), ...(options.remotes ?? []).map((r) => `--remote=${r}`)];
    const server = serverHandle(dir, 'db', await spawnServer(dir, db, 'db', extra, Boolean(certs)), true);
    return { ...server, tls: certs?.tls, otherCa: certs?.otherCa };
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * A standalone server on an existing database file, its socket, log and control files beside it
 * (named after the file), kept when it stops: started again on the same file, it holds what it held.
 */
export async function serveDatabase(db: string): Promise<OvsdbServer> {
  const dir = path.dirname(db);
  const name = path.basename(db, '.db');
  // the port of this start is read from the log: not one of an earlier start's
  await fs.rm(path.join(dir, `${name}.log`), { force: true });
  return serverHandle(dir, name, await spawnServer(dir, db, name, [], false), false);
}

/** `ovn-nbctl --db=<server's unix socket> args...`, its output trimmed: a Northbound as a person reads it. */
export async function nbctl(server: Pick<OvsdbServer, 'unix'>, ...args: string[]): Promise<string> {
  return (await run('ovn-nbctl', [`--db=${server.unix}`, ...args])).stdout.trim();
}

/** Inserts a Logical_Router of this name: a write the client must not send twice. */
export const insertRouter = (name: string): Operation[] => [{ op: 'insert', table: 'Logical_Router', row: { name } }];

/** The same insert guarded by "no router of this name yet": safe to send again after a transport failure. */
export const guardedInsertRouter = (name: string): Operation[] => [
  {
    op: 'wait',
    table: 'Logical_Router',
    where: [['name', '==', name]],
    columns: ['name'],
    until: '==',
    rows: [],
    timeout: 0,
  },
  ...insertRouter(name),
];
