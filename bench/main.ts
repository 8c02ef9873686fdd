/**
 * `npm run bench [-- <name>...]`: runs every benchmark, or the named ones.
 */
import { benchmarks } from './registry';

async function main(names: string[]): Promise<number> {
  const unknown = names.filter((n) => !benchmarks.some((b) => b.name === n));
  if (unknown.length > 0) {
    process.stderr.write(
      `unknown benchmark(s): ${unknown.join(', ')}; known: ${benchmarks.map((b) => b.name).join(', ')}\n`,
    );
    return 3;
  }
  const selected = names.length > 0 ? benchmarks.filter((b) => names.includes(b.name)) : benchmarks;
  for (const bench of selected) {
    process.stderr.write(`== ${bench.name}: ${bench.description}\n`);
    await bench.run();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
