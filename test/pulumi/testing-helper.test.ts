/**
 * `ovnk-pulumi/testing` as a consumer uses it (test/support/consumerProject.ts): a strict
 * TypeScript program type-checked against the shipped declarations, then run under `ovnkMocks`
 * wrapped around the program's own
 * mocks, in both modes (Northbound: ClusterAllocations; Kubernetes: ClusterPrediction), with
 * preview true and false. Linked, not packed and installed: packaging.test.ts proves the packed
 * install; this stays fast.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsumerProject, consumerProject } from '../support/consumerProject';
import { topologyArgs } from './fixtures';

const program = `
import * as pulumi from '@pulumi/pulumi';
import { readFileSync } from 'node:fs';
import { Cluster, kubernetesTarget, type ClusterArgs } from 'ovnk-pulumi';
import { ovnkMocks } from 'ovnk-pulumi/testing';

const mode = process.argv[2] === 'kubernetes' ? 'kubernetes' : 'northbound';
const preview = process.argv[3] === 'true';
const mine: string[] = [];
// the program's own mocks, for its other providers: ovnkMocks hands them everything not ovnk's
void pulumi.runtime.setMocks(
  ovnkMocks({
    newResource: (args) => {
      mine.push(args.type);
      return { id: args.name + '-id', state: { ...args.inputs, answeredBy: 'my mocks' } };
    },
  }),
  'consumer',
  'dev',
  preview,
);

const args = JSON.parse(readFileSync('topology.json', 'utf8')) as ClusterArgs;
const cluster = new Cluster('c', mode === 'kubernetes' ? { ...args, target: kubernetesTarget() } : args);
class Thing extends pulumi.CustomResource {
  declare readonly answeredBy: pulumi.Output<string>;
  constructor(name: string) {
    super('acme:index:Thing', name, { size: 3, answeredBy: undefined });
  }
}
const answered = new Thing('thing').answeredBy;
pulumi.all([cluster.allocations, answered]).apply(([allocations, by]) => {
  const networkIds: Record<string, number> = allocations.networkIds;
  setTimeout(() => process.stdout.write(JSON.stringify({ mode, preview, networkIds, by, mine })), 200);
});
`;

let project: ConsumerProject;

beforeAll(() => {
  project = consumerProject('ovnk-testing-');
  project.write('topology.json', JSON.stringify(topologyArgs('colored-enterprise', 'central')));
  project.write('index.ts', program);
});
afterAll(() => project.remove());

describe('ovnk-pulumi/testing from a consumer project', () => {
  it('type-checks a strict program that wraps its own mocks with ovnkMocks', () => {
    expect(project.typeErrors([join(project.dir, 'index.ts')])).toEqual([]);
  });

  for (const mode of ['northbound', 'kubernetes'])
    for (const preview of [true, false])
      it(`gives the allocations in ${mode} mode with preview ${preview}, and the program's own mocks answer the rest`, () => {
        const out = execFileSync(process.execPath, [join(project.dir, 'out', 'index.js'), mode, String(preview)], {
          cwd: project.dir,
          encoding: 'utf8',
          timeout: 60_000,
        });
        const result = JSON.parse(out);
        expect(result).toMatchObject({ mode, preview, by: 'my mocks' });
        // colored-enterprise: blue, green and yellow take network ids 1, 2 and 3 (the planner's order)
        expect(result.networkIds).toEqual({
          'cluster_udn_blue-network': 1,
          'cluster_udn_green-network': 2,
          'yellow_yellow-network': 3,
        });
        expect(result.mine).toContain('acme:index:Thing');
        const ovnkKind = mode === 'kubernetes' ? 'ClusterPrediction' : 'ClusterAllocations';
        expect(result.mine).not.toContain(`pulumi-nodejs:dynamic/ovnk:${ovnkKind}`);
        if (mode === 'kubernetes') expect(result.mine).toContain('kubernetes:k8s.ovn.org/v1:ClusterUserDefinedNetwork');
      });
});
