/** Every benchmark, by name. Add one line per benchmark module. */
import { allocBenchmark } from './alloc';
import type { Benchmark } from './harness';
import { labBenchmark } from './lab';
import { ovsdbBenchmark } from './ovsdb';
import { reconcileBenchmark } from './reconcile';

export const benchmarks: Benchmark[] = [allocBenchmark, labBenchmark, ovsdbBenchmark, reconcileBenchmark];
