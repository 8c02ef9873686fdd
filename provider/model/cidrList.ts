/**
 * A list of CIDRs read from a document field (the Inventory's and networks' subnet lists).
 */
import { parseCidr } from './cidr';
import type { FieldReader, Json } from './fields';
import { problem } from './problem';

/** A list of CIDRs, each checked strictly; bad ones are InvalidField problems and dropped. */
export function cidrList(r: FieldReader, value: Json, field: string, fallback: readonly string[] = []): string[] {
  const texts = r.strings(value, field);
  if (!texts) return [...fallback];
  return texts.filter((text, i) => {
    const parsed = parseCidr(text);
    if (parsed.ok) return true;
    r.problems.push(problem('InvalidField', r.object, `${field}[${i}]`, `${field}[${i}] "${text}" ${parsed.why}`));
    return false;
  });
}
