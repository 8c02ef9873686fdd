/**
 * One JSON-RPC 1.0 connection (RFC 7047 section 4): numbered requests with a timeout each,
 * notifications to listeners, the server's `echo` answered, our own `echo` sent after a quiet
 * spell so a dead peer is noticed, and every pending request failed when the connection breaks.
 * An unanswered echo does not drop the connection while another request is still within its own
 * timeout: ovsdb-server answers in order, so a large transaction keeps it silent for seconds, and
 * that request's timeout (not the probe's) decides when the server is given up.
 */
import type { Duplex } from 'node:stream';
import { OvsdbRpcError, OvsdbTransportError } from './errors';
import { JsonSplitter } from './framing';
import { Outbox } from './outbox';

export interface RpcOptions {
  /** Default time a request may wait for its reply. */
  requestTimeoutMs?: number;
  /**
   * Quiet time after which we send an echo; no answer within as long again drops the connection,
   * unless another request is still within its timeout. 0 disables.
   */
  inactivityProbeMs?: number;
}

/**
 * Params made as they are written (outbox.ts): each piece is the JSON text of one or more
 * consecutive params, joined by commas, without the enclosing brackets.
 */
export interface ParamsText {
  readonly pieces: Iterable<string>;
}

export type NotificationListener = (method: string, params: unknown[]) => void;

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  /** When the request times out (ms since the epoch). */
  deadline: number;
}

interface Message {
  id?: unknown;
  method?: string;
  params?: unknown[];
  result?: unknown;
  error?: unknown;
}

export class RpcConnection {
  private readonly splitter = new JsonSplitter();
  private readonly outbox: Outbox;
  private readonly pending = new Map<number, Pending>();
  private readonly notificationListeners = new Set<NotificationListener>();
  private readonly closeListeners = new Set<(error: OvsdbTransportError) => void>();
  private readonly requestTimeoutMs: number;
  private readonly probeMs: number;
  private readonly probeTimer?: NodeJS.Timeout;
  private nextId = 1;
  private lastHeard = Date.now();
  private probing = false;
  private failure?: OvsdbTransportError;

  constructor(
    private readonly stream: Duplex,
    readonly endpoint: string,
    options: RpcOptions = {},
  ) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.probeMs = options.inactivityProbeMs ?? 5_000;
    this.outbox = new Outbox(stream, (error) => this.fail('protocol', `a request was cut short: ${error.message}`));
    stream.on('data', (chunk: Buffer) => this.receive(chunk));
    stream.on('error', (error: Error) => this.fail('closed', `connection failed: ${error.message}`));
    stream.on('close', () => this.fail('closed', this.closedDetail()));
    stream.on('end', () => this.fail('closed', this.closedDetail()));
    if (this.probeMs > 0) {
      this.probeTimer = setInterval(() => this.probe(), Math.max(10, Math.floor(this.probeMs / 2)));
      this.probeTimer.unref();
    }
  }

  get isOpen(): boolean {
    return this.failure === undefined;
  }

  /**
   * Sends a request; resolves with `result`, rejects with OvsdbRpcError or OvsdbTransportError.
   * The timeout counts from now: writing a large request is part of it.
   */
  request<T = unknown>(method: string, params: unknown[] | ParamsText, timeoutMs = this.requestTimeoutMs): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new OvsdbTransportError(this.endpoint, 'timeout', `${method} got no reply within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        method,
        resolve: resolve as (r: unknown) => void,
        reject,
        timer,
        deadline: Date.now() + timeoutMs,
      });
      const text = Array.isArray(params) ? [JSON.stringify({ method, params, id })] : messageText(method, id, params);
      this.outbox.send(text).catch((error: Error) => this.settle(id, error));
    });
  }

  /** Fails request `id` with `error` if it still waits. */
  private settle(id: number, error: Error): void {
    this.take(id)?.reject(error);
  }

  /** The request `id` if it still waits, no longer waiting (its timer stopped). */
  private take(id: number): Pending | undefined {
    const pending = this.pending.get(id);
    if (!pending) return undefined;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    return pending;
  }

  onNotification(listener: NotificationListener): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  onClose(listener: (error: OvsdbTransportError) => void): void {
    this.closeListeners.add(listener);
  }

  /** Closes the connection; pending requests fail with a transport error saying so. */
  close(): void {
    this.fail('closed', 'connection closed by the client');
  }

  private send(message: Message): void {
    void this.outbox.send([JSON.stringify(message)]);
  }

  private receive(chunk: Buffer): void {
    this.lastHeard = Date.now();
    let messages: unknown[];
    try {
      messages = this.splitter.push(chunk);
    } catch (error) {
      this.fail('protocol', `unreadable reply: ${(error as Error).message}`);
      return;
    }
    for (const message of messages) this.dispatch(message as Message);
  }

  private dispatch(message: Message): void {
    if (typeof message.method === 'string') {
      this.handleIncoming(message);
      return;
    }
    const pending = typeof message.id === 'number' ? this.take(message.id) : undefined;
    if (!pending) return; // a reply to a request that already timed out
    if (message.error !== null && message.error !== undefined)
      pending.reject(new OvsdbRpcError(this.endpoint, pending.method, message.error));
    else pending.resolve(message.result);
  }

  /** RFC 7047 4.1.11: echo must be answered with the same params, or the server drops us. */
  private handleIncoming(message: Message): void {
    const params = message.params ?? [];
    const isRequest = message.id !== null && message.id !== undefined;
    if (message.method === 'echo' && isRequest) this.send({ id: message.id, result: params, error: null });
    else if (isRequest) this.send({ id: message.id, result: null, error: `unknown method ${message.method}` });
    else for (const listener of this.notificationListeners) listener(message.method as string, params);
  }

  private probe(): void {
    if (this.failure || this.probing || Date.now() - this.lastHeard < this.probeMs) return;
    this.probing = true;
    this.request('echo', [], this.probeMs).then(
      () => (this.probing = false),
      () => {
        this.probing = false;
        if (!this.awaitingOtherReply())
          this.fail('timeout', `no answer to echo within ${this.probeMs} ms after ${this.probeMs} ms of silence`);
      },
    );
  }

  /**
   * Whether another request still waits within its own timeout (the server is busy, not gone); the
   * timed-out echo has left `pending`.
   */
  private awaitingOtherReply(): boolean {
    const now = Date.now();
    return [...this.pending.values()].some((p) => p.deadline > now);
  }

  private closedDetail(): string {
    const cut = this.splitter.bufferedBytes;
    return cut > 0
      ? `connection closed by the server in the middle of a message (${cut} bytes)`
      : 'connection closed by the server';
  }

  private fail(reason: 'closed' | 'timeout' | 'protocol', detail: string): void {
    if (this.failure) return;
    this.failure = new OvsdbTransportError(this.endpoint, reason, detail);
    clearInterval(this.probeTimer);
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new OvsdbTransportError(this.endpoint, reason, `${pending.method} failed: ${detail}`));
    }
    this.pending.clear();
    this.outbox.close();
    this.stream.destroy();
    for (const listener of this.closeListeners) listener(this.failure);
  }
}

/** A request's JSON text, its params written piece by piece. */
function* messageText(method: string, id: number, params: ParamsText): Generator<string> {
  yield `{"method":${JSON.stringify(method)},"id":${id},"params":[`;
  let first = true;
  for (const piece of params.pieces) {
    yield first ? piece : `,${piece}`;
    first = false;
  }
  yield ']}';
}
