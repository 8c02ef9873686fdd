/**
 * The `-o json` document written as it is serialized, piece by piece, instead of one string: a
 * per-node plan's document can exceed the longest string V8 can build ("Invalid string length"),
 * and one string holds the whole text in memory beside the document. The text is exactly
 * `JSON.stringify(value, null, 2)`'s; writes wait for the stream to drain, so a slow reader holds
 * memory to one chunk.
 */

const CHUNK = 1 << 16;

/** JSON.stringify's text of `value`, indented by 2, as a sequence of pieces. */
export function* jsonPieces(value: unknown, indent = ''): Generator<string> {
  const v = toJsonValue(value);
  if (v === null || typeof v !== 'object') {
    yield JSON.stringify(v ?? null);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (v.length === 0) return yield '[]';
    yield '[';
    for (let i = 0; i < v.length; i++) {
      yield `${i > 0 ? ',' : ''}\n${inner}`;
      const item = toJsonValue(v[i]);
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') yield 'null';
      else yield* jsonPieces(item, inner);
    }
    return yield `\n${indent}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>)
    .map(([k, e]) => [k, toJsonValue(e)] as const)
    .filter(([, e]) => e !== undefined && typeof e !== 'function' && typeof e !== 'symbol');
  if (entries.length === 0) return yield '{}';
  yield '{';
  for (let i = 0; i < entries.length; i++) {
    const [key, item] = entries[i]!;
    yield `${i > 0 ? ',' : ''}\n${inner}${JSON.stringify(key)}: `;
    yield* jsonPieces(item, inner);
  }
  yield `\n${indent}}`;
}

function toJsonValue(value: unknown): unknown {
  const withToJson = value as { toJSON?: () => unknown } | null;
  if (withToJson !== null && typeof withToJson === 'object' && typeof withToJson.toJSON === 'function')
    return withToJson.toJSON();
  if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  return value;
}

/** Write `value` as `-o json` text plus a newline, in chunks, waiting for the stream to drain. */
export async function writeJson(stream: NodeJS.WritableStream, value: unknown): Promise<void> {
  let buffer = '';
  const flush = async () => {
    const chunk = buffer;
    buffer = '';
    if (!stream.write(chunk)) await new Promise<void>((resolve) => stream.once('drain', resolve));
  };
  for (const piece of jsonPieces(value)) {
    buffer += piece;
    if (buffer.length >= CHUNK) await flush();
  }
  buffer += '\n';
  await flush();
  await new Promise<void>((resolve) => stream.write('', () => resolve()));
}
