/** Names in natural order, as people count them: digit runs compare as numbers (node-2 before node-10). */
const collator = new Intl.Collator('en', { numeric: true });

export const naturalCompare = (a: string, b: string): number => collator.compare(a, b);
