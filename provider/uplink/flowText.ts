/**
 * One spelling for a flow, so the flows we render (upstream's text: `cookie=…, priority=100,
 * in_port=3, ip, ip_src=…, actions=ct(commit, zone=…)`) compare with what `ovs-ofctl dump-flows
 * --no-stats` prints for them (`cookie=…, priority=100,ip,in_port=3,nw_src=… actions=ct(commit,…)`):
 * spaces dropped, table 0 and the cookie left out, match fields sorted with aliases folded, the
 * arguments of `ct(...)` sorted, `output:NORMAL` and `output:LOCAL` bare. Pure.
 */

// ovs-ofctl prints an ICMPv6 type as icmp_type (the field is shared with ICMPv4)
const aliases: Record<string, string> = {
  ip_src: 'nw_src',
  ip_dst: 'nw_dst',
  icmpv6_type: 'icmp_type',
  icmpv6_code: 'icmp_code',
  'table=0': '',
};

/** Split on commas outside parentheses. */
function topLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.filter((p) => p !== '');
}

function matchField(field: string): string {
  const [key, value] = field.split('=', 2) as [string, string | undefined];
  if (field in aliases) return aliases[field]!;
  const name = aliases[key] ?? key;
  if (name === 'ct_state' && value !== undefined)
    return `ct_state=${value
      .match(/[+-][a-z]+/g)!
      .sort()
      .join('')}`;
  return value === undefined ? name : `${name}=${value}`;
}

function action(a: string): string {
  if (/^output:[A-Z_]+$/.test(a)) return a.slice('output:'.length); // NORMAL, LOCAL: printed bare
  const ct = /^ct\((.*)\)$/.exec(a);
  return ct ? `ct(${topLevel(ct[1]!).sort().join(',')})` : a;
}

/** The canonical text of a flow (either spelling); undefined for a line that is not a flow. */
export function canonicalFlow(text: string): string | undefined {
  const compact = text.replace(/\breset_counts\b/g, '').replace(/\s+/g, '');
  const at = compact.indexOf('actions=');
  if (at < 0) return undefined;
  const match = topLevel(compact.slice(0, at))
    .filter((f) => !/^(cookie|duration|n_packets|n_bytes|idle_age|hard_age|reset_counts)(=|$)/.test(f))
    .map(matchField)
    .filter((f) => f !== '')
    .sort();
  const actions = topLevel(compact.slice(at + 'actions='.length)).map(action);
  return `${match.join(',')} actions=${actions.join(',')}`;
}

/** The canonical flows of a `dump-flows` output (its reply header and blank lines dropped), sorted. */
export function canonicalFlows(lines: readonly string[]): string[] {
  return lines.flatMap((l) => canonicalFlow(l) ?? []).sort();
}

/** A flow of a `dump-flows` output: its cookie (`0x…`, as printed; `0x0` when none is) and canonical text. */
export interface DumpedFlow {
  cookie: string;
  flow: string;
}

/** The flows of a `dump-flows` output with their cookies. */
export function dumpedFlows(lines: readonly string[]): DumpedFlow[] {
  return lines.flatMap((line) => {
    const flow = canonicalFlow(line);
    if (flow === undefined) return [];
    return [{ cookie: /\bcookie=(0x[0-9a-f]+)/.exec(line)?.[1] ?? '0x0', flow }];
  });
}
