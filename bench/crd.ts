/**
 * `npm run bench -- crd`: what validating against the CRD schemas costs on colored-enterprise
 * (stacks/colored-enterprise.yaml). Cold: a fresh process loads the validator (precompiled ajv
 * code, cel-js) and checks every document once, as `ovnk plan` does; warm: the same again in a
 * running process. Baseline in the same run: planning the file (planTopology, warm), which
 * validation now precedes. Target: cold well under 100 ms.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { validateObject } from '../provider/model/crd';
import { planTopology } from '../provider/runtime/plan';
import { clearRenderMemos } from '../provider/runtime/zoneRows';
import { type Benchmark, bestOf, figure, note } from './harness';

const file = join(__dirname, '..', '..', 'stacks', 'colored-enterprise.yaml');

/** Seconds a fresh process spends loading the validator and validating the file's documents. */
function coldSeconds(): number {
  const crd = join(__dirname, '..', 'provider', 'model', 'crd');
  const script = [
    `const objects = require('yaml').parseAllDocuments(require('fs').readFileSync(${JSON.stringify(file)}, 'utf8')).map((d) => d.toJS()).filter(Boolean);`,
    'const start = process.hrtime.bigint();',
    `const { validateObject } = require(${JSON.stringify(crd)});`,
    'const problems = objects.flatMap((o) => validateObject(o));',
    'process.stdout.write(String(Number(process.hrtime.bigint() - start) / 1e9) + " " + problems.length);',
  ].join('\n');
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: join(__dirname, '..', '..') });
  const [seconds, problems] = run.stdout.split(' ');
  if (run.status !== 0 || problems !== '0') throw new Error(`bench crd: child failed: ${run.stderr}${run.stdout}`);
  return Number(seconds);
}

export const crdBenchmark: Benchmark = {
  name: 'crd',
  description:
    'CRD and Inventory schema validation of colored-enterprise: cold (fresh process) and warm, against planning it',
  async run() {
    const text = readFileSync(file, 'utf8');
    const objects = parseAllDocuments(text).map((d) => d.toJS() as unknown);
    note(`${objects.length} documents`);
    let cold = Infinity;
    for (let i = 0; i < 5; i++) cold = Math.min(cold, coldSeconds());
    const warm = await bestOf(10, () => objects.forEach((o) => validateObject(o)));
    const plan = await bestOf(5, () => {
      clearRenderMemos(); // a plan that renders, not one the render memo answers
      const result = planTopology(text);
      if (!result.ok) throw new Error(`bench crd: ${result.problems[0]!.message}`);
    });
    figure('crd.cold', cold * 1000, 'ms');
    figure('crd.warm', warm * 1000, 'ms');
    figure('crd.plan', plan * 1000, 'ms');
    figure('crd.cold.vs_plan', cold / plan, 'x');
    figure('crd.warm.vs_plan', warm / plan, 'x');
  },
};
