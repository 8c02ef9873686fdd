/**
 * Splits a byte stream of back-to-back JSON texts (OVSDB sends no delimiter, and replies arrive
 * split mid-message) into parsed messages. It scans bytes, not characters: every structural JSON
 * character is ASCII and every byte of a multi-byte UTF-8 sequence is >= 0x80, so a character
 * split across chunks is only decoded once its whole message has arrived.
 */

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

export class FramingError extends Error {
  override name = 'FramingError';
}

export class JsonSplitter {
  private pending: Buffer[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Position of the next backslash in the current chunk (chunk length when none), -1 before searching. */
  private backslashAt = -1;

  /** Feeds one chunk; returns the messages it completed, in order. Throws FramingError on garbage. */
  push(chunk: Buffer): unknown[] {
    const messages: unknown[] = [];
    this.backslashAt = -1;
    let start = this.depth > 0 ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      if (this.inString && !this.escaped) i = this.skipString(chunk, i);
      const byte = chunk[i];
      if (byte === undefined) break; // the string ran to the chunk's end
      if (this.depth === 0) {
        if (isWhitespace(byte)) continue;
        if (byte !== OPEN_BRACE && byte !== OPEN_BRACKET)
          throw new FramingError(`unexpected byte 0x${byte.toString(16)} between JSON messages`);
        start = i;
      }
      if (this.scan(byte)) {
        messages.push(this.complete(chunk.subarray(start, i + 1)));
        start = -1;
      }
    }
    if (start >= 0) this.pending.push(chunk.subarray(start));
    return messages;
  }

  /** Most bytes of a reply are inside strings: jump to the next quote or backslash natively. */
  private skipString(chunk: Buffer, from: number): number {
    if (this.backslashAt < from) {
      const next = chunk.indexOf(BACKSLASH, from);
      this.backslashAt = next < 0 ? chunk.length : next; // backslashes are rare: search once per chunk
    }
    const quote = chunk.indexOf(QUOTE, from);
    return Math.min(quote < 0 ? chunk.length : quote, this.backslashAt);
  }

  /** True when the byte closes the outermost value. */
  private scan(byte: number): boolean {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) this.inString = false;
      return false;
    }
    if (byte === QUOTE) this.inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.depth++;
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) return --this.depth === 0;
    return false;
  }

  private complete(tail: Buffer): unknown {
    const text = (this.pending.length === 0 ? tail : Buffer.concat([...this.pending, tail])).toString('utf8');
    this.pending = [];
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new FramingError(`invalid JSON message: ${(error as Error).message}`);
    }
  }

  /** Bytes of an unfinished message (a peer that closes with this > 0 cut a message short). */
  get bufferedBytes(): number {
    return this.pending.reduce((n, b) => n + b.length, 0);
  }
}
