import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { errorDocument, ExitCode } from '../../../cli/contract';
import { jsonPieces, writeJson } from '../../../cli/jsonStream';

/** A slow sink that keeps only the byte count and the first and last bytes. */
function countingSink() {
  const seen = { bytes: 0, head: '', tail: '' };
  const stream = new Writable({
    highWaterMark: 1 << 16,
    write(chunk: Buffer, _encoding, done) {
      seen.bytes += chunk.length;
      if (seen.head.length < 64) seen.head += chunk.toString().slice(0, 64);
      seen.tail = (seen.tail + chunk.toString().slice(-64)).slice(-64);
      setImmediate(done);
    },
  });
  return { stream, seen };
}

describe('-o json written piece by piece', () => {
  it("gives exactly JSON.stringify's text for every kind of value", () => {
    const value = {
      text: 'a "quoted"\nline',
      numbers: [0, -1.5, 1e21, NaN, Infinity],
      nested: { empty: {}, none: [], deep: [[{ a: null }]] },
      skipped: undefined,
      fn: () => 1,
      inArray: [undefined, () => 1],
      date: new Date(0),
      bool: false,
    };
    expect([...jsonPieces(value)].join('')).toBe(JSON.stringify(value, null, 2));
    expect([...jsonPieces('plain')].join('')).toBe(JSON.stringify('plain', null, 2));
  });

  it('writes a document longer than the longest string V8 can build, through a slow reader', async () => {
    const megabyte = 'x'.repeat(1 << 20);
    const document = { ok: true, parts: Array.from({ length: 600 }, () => megabyte) };
    expect(() => JSON.stringify(document)).toThrow(RangeError);
    const { stream, seen } = countingSink();
    await writeJson(stream, document);
    expect(seen.bytes).toBeGreaterThan(600 * (1 << 20));
    expect(seen.head.startsWith('{\n  "ok": true,\n  "parts": [')).toBe(true);
    expect(seen.tail.endsWith('"\n  ]\n}\n')).toBe(true);
  }, 120_000);

  it("a limit of this process is exit 1 with the reason, never a target's exit 4", () => {
    const { exitCode, document } = errorDocument(new RangeError('Invalid string length'));
    expect(exitCode).toBe(ExitCode.refused);
    expect(document).toMatchObject({ ok: false, error: expect.stringContaining('Invalid string length') });
  });
});
