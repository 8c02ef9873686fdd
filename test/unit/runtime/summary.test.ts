import { describe, expect, it } from 'vitest';
import { boundedSummary, SUMMARY_LINES } from '../../../provider/runtime/summary';

// Issue 30.6: a zone's result keeps at most SUMMARY_LINES lines of its summary, so `apply` over
// many large zones does not hold every row's line of every zone until it prints them.

const lines = (n: number, table: string, action = 'create') =>
  Array.from({ length: n }, (_, i) => `${action} ${table} "row-${i}"`);

describe("a zone's change summary", () => {
  it('is kept whole up to SUMMARY_LINES lines', () => {
    const short = lines(SUMMARY_LINES, 'Logical_Switch_Port');
    expect(boundedSummary(short)).toEqual(short);
  });

  it('keeps the first SUMMARY_LINES lines of a longer one and counts the rest per action and table', () => {
    const long = [
      ...lines(SUMMARY_LINES, 'ACL'),
      ...lines(3, 'Logical_Switch_Port'),
      ...lines(2, 'Logical_Router', 'update'),
      ...lines(4, 'Logical_Switch_Port'),
    ];
    const kept = boundedSummary(long);
    expect(kept).toHaveLength(SUMMARY_LINES + 1);
    expect(kept.slice(0, SUMMARY_LINES)).toEqual(long.slice(0, SUMMARY_LINES));
    expect(kept[SUMMARY_LINES]).toBe('... and 9 more: create Logical_Switch_Port x7, update Logical_Router x2');
  });
});
