/**
 * Quoting an argv for a POSIX remote shell (SSH runs commands through the user's shell): every
 * word that is not plainly safe goes in single quotes, with embedded single quotes spliced in as
 * '\''. The remote shell then sees exactly the given words, whatever characters they hold.
 */

const SAFE_WORD = /^[A-Za-z0-9_\-.,:/@%+=]+$/;

export function quoteWord(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function quoteArgv(argv: readonly string[]): string {
  return argv.map(quoteWord).join(' ');
}

/** Why argv cannot be run, with the offending element; undefined when it is fine. */
export function argvProblem(argv: unknown): { field: string; reason: string } | undefined {
  if (!Array.isArray(argv) || argv.length === 0)
    return { field: 'argv', reason: 'must be a non-empty list of strings' };
  for (const [i, word] of argv.entries()) {
    if (typeof word !== 'string') return { field: `argv[${i}]`, reason: `is ${typeof word}, not a string` };
    if (word.includes('\0'))
      return { field: `argv[${i}]`, reason: 'contains a NUL byte, which no command line can carry' };
  }
  if (argv[0] === '') return { field: 'argv[0]', reason: 'names no program' };
  return undefined;
}
