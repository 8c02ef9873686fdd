/**
 * What a zone's result keeps of its change summary: the first SUMMARY_LINES lines, then one line
 * counting the rest per action and table. A zone of a 500-node per-node cluster changes about
 * 22,000 rows on its first apply; kept whole, every applied zone's lines stayed in memory until
 * the command printed them, so `apply` grew with the zones it applied (issue 30.6), and its output
 * was 2 MB per zone that nobody reads line by line. `operations` still counts everything sent.
 */

/** Lines of a zone's summary kept in its result; a zone with more says how many more. */
export const SUMMARY_LINES = 1_000;

/** `lines` whole when short; else the first SUMMARY_LINES and a count of the rest per action and table. */
export function boundedSummary(lines: readonly string[]): string[] {
  if (lines.length <= SUMMARY_LINES) return [...lines];
  const rest = new Map<string, number>();
  for (const line of lines.slice(SUMMARY_LINES)) {
    // a summary line starts `<action> <table> ...` (nb/changeWords.ts describeChange)
    const kind = line.split(' ', 2).join(' ');
    rest.set(kind, (rest.get(kind) ?? 0) + 1);
  }
  const counted = [...rest].map(([kind, n]) => `${kind} x${n}`).join(', ');
  return [...lines.slice(0, SUMMARY_LINES), `... and ${lines.length - SUMMARY_LINES} more: ${counted}`];
}
