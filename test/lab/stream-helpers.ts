/**
 * Long-lived TCP streams of the lab tests (issue 31): a python3 pair (Debian's; no socat on these
 * machines), one end listening in one network namespace, the other connecting from another, each
 * writing a small chunk every 10 ms and counting the bytes it sent and received. Each end records
 * every pause between two receives longer than 50 ms with the wall-clock time it ended, so a test
 * can tell the longest pause of the whole run or of one step. Every end is a process this file
 * started: it is stopped by its pid (lab/processes.ts, which checks the pid still runs python3),
 * and it also ends by itself when its stdin closes (the test process died) or after `maxSeconds`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { stopDaemons } from '../../lab/processes';

/** What one end reports, every 100 ms and once more when it stops. */
export interface EndStats {
  sent: number;
  received: number;
  /** `[ended at (epoch ms), length (ms)]` of every pause between two receives longer than 50 ms. */
  pauses: [number, number][];
  /** Why the stream ended on this side (peer closed, reset, timeout), null while it is open. */
  error: string | null;
}

const streamScript = `
import json, os, signal, socket, sys, threading, time
role, address, port, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
family = socket.AF_INET6 if ':' in address else socket.AF_INET
stats = {'sent': 0, 'received': 0, 'pauses': [], 'error': None}
lock = threading.Lock()
def report():
    with lock:
        print(json.dumps(stats), flush=True)
def finish(*_):
    report()
    os._exit(0)
signal.signal(signal.SIGTERM, finish)
threading.Thread(target=lambda: (sys.stdin.read(), finish()), daemon=True).start()
if role == 'server':
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((address, port))
    listener.listen(1)
    print('ready', flush=True)
    conn, _ = listener.accept()
else:
    end = time.time() + 10
    while True:
        try:
            conn = socket.create_connection((address, port), timeout=1)
            break
        except OSError:
            if time.time() > end:
                raise
            time.sleep(0.1)
    conn.settimeout(None)
    print('ready', flush=True)
conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
def read():
    last = time.time()
    while True:
        try:
            data = conn.recv(65536)
        except OSError as e:
            data, stats['error'] = b'', str(e)
        if not data:
            stats['error'] = stats['error'] or 'closed by peer'
            return
        now = time.time()
        with lock:
            if now - last > 0.05:
                stats['pauses'] = (stats['pauses'] + [[round(now * 1000), round((now - last) * 1000)]])[-200:]
            stats['received'] += len(data)
        last = now
def write():
    chunk = b'x' * 256
    while stats['error'] is None:
        try:
            conn.sendall(chunk)
        except OSError as e:
            stats['error'] = str(e)
            return
        with lock:
            stats['sent'] += len(chunk)
        time.sleep(0.01)
threading.Thread(target=read, daemon=True).start()
threading.Thread(target=write, daemon=True).start()
stop = time.time() + seconds
while time.time() < stop:
    time.sleep(0.1)
    report()
finish()
`;

interface End {
  child: ChildProcessWithoutNullStreams;
  latest: EndStats;
  ready: Promise<void>;
  done: Promise<void>;
}

/** Start one end in `netns`; resolves once it listens (server) or is connected (client). */
function startEnd(netns: string, role: 'server' | 'client', address: string, port: number, seconds: number): End {
  const argv = ['netns', 'exec', netns, 'python3', '-u', '-c', streamScript, role, address, String(port)];
  const child = spawn('ip', [...argv, String(seconds)]);
  const end = { child, latest: { sent: 0, received: 0, pauses: [], error: null } } as unknown as End;
  let buffered = '';
  let stderr = '';
  end.ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line === 'ready') resolve();
        else if (line.startsWith('{')) end.latest = JSON.parse(line) as EndStats;
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => reject(new Error(`stream ${role} in ${netns} ended (exit ${code}): ${stderr.trim()}`)));
  });
  end.done = new Promise<void>((resolve) => child.on('close', () => resolve()));
  end.ready.catch(() => undefined);
  return end;
}

export interface TcpStream {
  /** What each end reported last. */
  now(): { client: EndStats; server: EndStats };
  /** Resolves once each end received `bytes` more than it had; rejects after `timeoutMs`. */
  moving(bytes?: number, timeoutMs?: number): Promise<void>;
  /** The longest pause (ms) either end saw that ended at or after `since` (epoch ms). */
  longestPause(since?: number): number;
  /** Stop both ends by pid and return their last reports. */
  stop(): Promise<{ client: EndStats; server: EndStats }>;
}

const started = new Set<TcpStream>();

/**
 * A TCP stream from a client in `client.netns` to a server listening on `server.address` in
 * `server.netns`, moving bytes both ways until stopped.
 */
export async function openStream(
  server: { netns: string; address: string },
  client: { netns: string },
  { port = 5201, maxSeconds = 600 }: { port?: number; maxSeconds?: number } = {},
): Promise<TcpStream> {
  const listening = startEnd(server.netns, 'server', server.address, port, maxSeconds);
  const ends: End[] = [listening];
  const stream: TcpStream = {
    now: () => ({ client: ends[1]?.latest ?? listening.latest, server: listening.latest }),
    async moving(bytes = 4096, timeoutMs = 15_000) {
      const from = ends.map((e) => e.latest.received);
      const deadline = Date.now() + timeoutMs;
      while (ends.some((e, i) => e.latest.received < from[i]! + bytes)) {
        if (Date.now() > deadline) {
          const seen = ends.map((e, i) => `${e.latest.received - from[i]!} (${e.latest.error ?? 'open'})`);
          throw new Error(`the stream moved fewer than ${bytes} bytes in ${timeoutMs} ms: ${seen.join(', ')}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    longestPause: (since = 0) =>
      Math.max(0, ...ends.flatMap((e) => e.latest.pauses.filter(([at]) => at >= since).map(([, ms]) => ms))),
    async stop() {
      started.delete(stream);
      const pids = ends.map((e) => e.child.pid).filter((pid): pid is number => pid !== undefined);
      await stopDaemons(pids.map((pid) => ({ name: `stream ${pid}`, program: 'python3', pidFile: '', pid })));
      await Promise.all(ends.map((e) => e.done));
      return stream.now();
    },
  };
  started.add(stream);
  try {
    await listening.ready;
    ends.push(startEnd(client.netns, 'client', server.address, port, maxSeconds));
    await ends[1]!.ready;
  } catch (error) {
    await stream.stop();
    throw error;
  }
  return stream;
}

/** Stop every stream this file started and did not stop yet (an afterAll of tests that failed midway). */
export async function stopAllStreams(): Promise<void> {
  for (const stream of [...started]) await stream.stop();
}
