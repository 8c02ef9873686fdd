/**
 * Writes JSON-RPC messages to a connection one whole message at a time. A message is given as
 * pieces of its text, made only as they are written: a transaction of 100,000 rows is tens of
 * megabytes of JSON, and ovsdb-server parses a message as its bytes arrive, so it parses the first
 * operations while we serialize the rest instead of waiting for all of them. Pieces go out as the
 * peer takes them (a full socket pauses the making until 'drain'), and a message sent while another
 * is being written goes after it, never into the middle of it.
 */
import type { Duplex } from 'node:stream';

/**
 * Small pieces are gathered up to this many characters per write: fewer system calls, and a
 * gathered text stays under V8's large-object size (128 KiB), so it dies young.
 */
const WRITE_CHARS = 64 * 1024;

interface Queued {
  pieces: Iterator<string>;
  settle(error?: Error): void;
}

export class Outbox {
  private readonly queue: Queued[] = [];
  private writing = false;
  private closed = false;

  /**
   * `onCut` hears of a message whose making threw after part of it was written: the peer holds half
   * a message, so the connection is unusable (nothing more is written to it).
   */
  constructor(
    private readonly stream: Duplex,
    private readonly onCut: (error: Error) => void,
  ) {}

  /**
   * Queues one message, its text the concatenation of `pieces`. Resolves once it was handed to
   * the stream whole (or the outbox closed); rejects with the error a piece threw (before any of
   * it was written, the connection stays usable). A message queued on an idle outbox is written
   * before this returns, up to the first full socket.
   */
  send(pieces: Iterable<string>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({
        pieces: pieces[Symbol.iterator](),
        settle: (error) => (error ? reject(error) : resolve()),
      });
      if (!this.writing) void this.drainQueue();
    });
  }

  /** Nothing more is written; queued messages are dropped (the connection is gone). */
  close(): void {
    this.closed = true;
    for (const queued of this.queue.splice(0)) queued.settle();
  }

  private async drainQueue(): Promise<void> {
    this.writing = true;
    while (!this.closed && this.queue.length > 0) {
      const message = this.queue[0]!;
      const written = { any: false };
      try {
        await this.write(message.pieces, written);
        this.queue.shift();
        message.settle();
      } catch (error) {
        this.queue.shift();
        message.settle(error as Error);
        if (written.any) this.cut(error as Error);
      }
    }
    this.writing = false;
  }

  private cut(error: Error): void {
    this.close();
    this.onCut(error);
  }

  /**
   * Writes the pieces in order, small ones gathered into one write of at most WRITE_CHARS (a large
   * piece goes alone), waiting while the socket is full.
   */
  private async write(pieces: Iterator<string>, written: { any: boolean }): Promise<void> {
    let gathered = '';
    for (let next = pieces.next(); !next.done; next = pieces.next()) {
      if (gathered !== '' && gathered.length + next.value.length > WRITE_CHARS) {
        written.any = true;
        if (!(await this.put(gathered))) return;
        gathered = '';
      }
      gathered += next.value;
    }
    if (gathered !== '') await this.put(gathered);
  }

  /** Hands `text` to the stream; after a full socket, waits for 'drain'. False once closed. */
  private async put(text: string): Promise<boolean> {
    if (this.closed || this.stream.destroyed) return false;
    if (!this.stream.write(text)) await this.drained();
    return !this.closed;
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('close', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('close', done);
    });
  }
}
