/** Every benchmark, by name. Add one line per benchmark module. */
import { allocBenchmark } from './alloc';
import { applyMemoryBenchmark } from './applyMemory';
import { auditBenchmark } from './audit';
import { connectBenchmark } from './connect';
import { connectRowsBenchmark } from './connectRows';
import { crdBenchmark } from './crd';
import type { Benchmark } from './harness';
import { labBenchmark } from './lab';
import { networksBenchmark } from './networks';
import { ovsdbBenchmark } from './ovsdb';
import { perNodeBenchmark } from './perNode';
import { pulumiBenchmark } from './pulumi';
import { pulumiScaleBenchmark } from './pulumiScale';
import { readsBenchmark } from './reads';
import { reconcileBenchmark } from './reconcile';
import { uplinkBenchmark } from './uplink';
import { zonesBenchmark } from './zones';

export const benchmarks: Benchmark[] = [
  allocBenchmark,
  connectRowsBenchmark,
  labBenchmark,
  ovsdbBenchmark,
  reconcileBenchmark,
  pulumiBenchmark,
  pulumiScaleBenchmark,
  networksBenchmark,
  uplinkBenchmark,
  connectBenchmark,
  zonesBenchmark,
  crdBenchmark,
  auditBenchmark,
  readsBenchmark,
  perNodeBenchmark,
  applyMemoryBenchmark,
];
