/**
 * Text tables as kubectl prints them: a header row in capitals, columns padded to their widest
 * cell and two spaces apart, no trailing blanks; and names in natural order (node-2 before node-10).
 */

/** The lines of a table; a cell may be '' (shown blank, as a continued row's repeated cells). */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header.map((h) => h.toUpperCase())), ...rows.map(line)];
}

/** Natural order: digit runs compare as numbers, so node-2 comes before node-10. */
export { naturalCompare } from '../provider/runtime/cli';
