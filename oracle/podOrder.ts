/**
 * Pods added together get their addresses in no defined order upstream: each network controller
 * takes pods from its own queues (base_network_controller_pods.go allocatePodAnnotation, one
 * pod at a time as the informer delivers them), so two pods of one node may swap addresses
 * between runs, while ours are assigned in name order. Where upstream's pod ports hold exactly
 * the addresses and MACs ours hold, only permuted among the pods, upstream's rows are rewritten
 * with our pods' addresses (every occurrence: ports, NATs, address sets, load-balancer
 * backends) before comparing; any other difference in pod addresses is left for the comparison
 * to report. Used by the fuzz, whose topologies add many pods at once. Pure.
 */
import type { NaturalRow } from '../provider/nb/naturalKeys';
import type { DumpRow } from './dump';

type Tables = Record<string, DumpRow[]>;

/** Address tokens (MAC, IPs) of each pod port: `addresses` is one "mac ip..." string. */
function podTokens(rows: { key: string; columns: Record<string, unknown> }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const row of rows) {
    const ids = (row.columns.external_ids ?? {}) as Record<string, unknown>;
    if (ids.pod !== 'true') continue;
    const addresses = row.columns.addresses;
    const first = Array.isArray(addresses) ? addresses[0] : addresses;
    if (typeof first === 'string') out.set(row.key, first.split(' ').filter(Boolean));
  }
  return out;
}

/** upstream token -> ours, when upstream's pod addresses are ours permuted; else undefined. */
export function podAddressPermutation(upstream: Tables, ours: readonly NaturalRow[]): Map<string, string> | undefined {
  const theirs = podTokens(upstream.Logical_Switch_Port ?? []);
  const mine = podTokens(ours.filter((r) => r.table === 'Logical_Switch_Port'));
  const mapping = new Map<string, string>();
  for (const [port, tokens] of theirs) {
    const other = mine.get(port);
    if (!other || other.length !== tokens.length) return undefined;
    for (const [i, token] of tokens.entries()) {
      const known = mapping.get(token);
      if (known !== undefined && known !== other[i]) return undefined;
      mapping.set(token, other[i]!);
    }
  }
  const from = [...mapping.keys()].sort();
  const to = [...mapping.values()].sort();
  const permutation = from.length === new Set(to).size && from.every((t, i) => t === to[i]);
  return permutation && [...mapping].some(([a, b]) => a !== b) ? mapping : undefined;
}

/**
 * `tables` with every whole address token renamed by `mapping` (keys and references too). An IPv4
 * address may be followed by `:port` (load-balancer backends); an IPv6 address or MAC by nothing
 * that would continue it.
 */
export function renameAddresses(tables: Tables, mapping: Map<string, string>): Tables {
  const alternation = (list: string[]) =>
    list
      .sort((a, b) => b.length - a.length)
      .map((t) => t.replace(/[.]/g, '\\.'))
      .join('|');
  const v4 = [...mapping.keys()].filter((t) => !t.includes(':'));
  const other = [...mapping.keys()].filter((t) => t.includes(':'));
  const patterns = [
    ...(v4.length > 0 ? [new RegExp(`(?<![0-9.])(${alternation(v4)})(?![0-9.])`, 'g')] : []),
    ...(other.length > 0 ? [new RegExp(`(?<![0-9A-Fa-f.:])(${alternation(other)})(?![0-9A-Fa-f.:])`, 'g')] : []),
  ];
  // one pass per pattern over the original text, so a renamed token is not renamed again
  let text = JSON.stringify(tables);
  for (const pattern of patterns) text = text.replace(pattern, (t) => mapping.get(t) ?? t);
  return JSON.parse(text) as Tables;
}
