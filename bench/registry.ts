/** Every benchmark, by name. Add one line per benchmark module. */
import type { Benchmark } from './harness';

export const benchmarks: Benchmark[] = [];
