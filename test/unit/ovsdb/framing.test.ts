import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FramingError, JsonSplitter } from '../../../provider/ovsdb/framing';

function feed(chunks: Buffer[]): unknown[] {
  const splitter = new JsonSplitter();
  return chunks.flatMap((chunk) => splitter.push(chunk));
}

const stream = (messages: unknown[]) => Buffer.from(messages.map((m) => JSON.stringify(m)).join(''), 'utf8');

function splitAt(buffer: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (buffer.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let last = 0;
  for (const point of [...points, buffer.length]) {
    chunks.push(buffer.subarray(last, point));
    last = point;
  }
  return chunks;
}

describe('splitting a byte stream into JSON-RPC messages', () => {
  it('a reply split mid-message is reassembled', () => {
    const text = Buffer.from('{"id":1,"result":["OVN_Northbound","_Server"],"error":null}');
    expect(feed([text.subarray(0, 10), text.subarray(10, 30), text.subarray(30)])).toEqual([
      { id: 1, result: ['OVN_Northbound', '_Server'], error: null },
    ]);
  });

  it('back-to-back messages in one chunk come out one by one, in order', () => {
    expect(feed([Buffer.from('{"id":1}{"id":2} \n[3]{"id":4}')])).toEqual([{ id: 1 }, { id: 2 }, [3], { id: 4 }]);
  });

  it('braces, brackets, quotes and backslashes inside strings do not end a message', () => {
    const message = { details: 'a "quoted" } ] { [ \\ back\\slash \\"', match: 'ip4.dst == {10.0.0.1}' };
    const text = stream([message, message]);
    expect(feed([text.subarray(0, 17), text.subarray(17)])).toEqual([message, message]);
  });

  it('an escape split across two chunks is still an escape', () => {
    const text = Buffer.from('{"s":"a\\"}b"}');
    const cut = text.indexOf('\\') + 1;
    expect(feed([text.subarray(0, cut), text.subarray(cut)])).toEqual([{ s: 'a"}b' }]);
  });

  it('a multi-byte UTF-8 character split between chunks is decoded intact', () => {
    const text = stream([{ name: 'né → 路由器 🚀' }]);
    const inside = text.indexOf(Buffer.from('🚀')) + 2;
    expect(feed([text.subarray(0, inside), text.subarray(inside)])).toEqual([{ name: 'né → 路由器 🚀' }]);
  });

  it('garbage between messages is a framing error', () => {
    expect(() => feed([Buffer.from('{"id":1}x')])).toThrow(FramingError);
  });

  it('reports the bytes of a message not yet complete', () => {
    const splitter = new JsonSplitter();
    splitter.push(Buffer.from('{"id":1,"res'));
    expect(splitter.bufferedBytes).toBe(12);
  });

  it('any chunking of a message stream yields the same messages', () => {
    const message = fc.dictionary(fc.string({ unit: 'grapheme' }), fc.jsonValue());
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (messages, cuts) => {
          const expected = JSON.parse(JSON.stringify(messages));
          expect(feed(splitAt(stream(messages), cuts))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
