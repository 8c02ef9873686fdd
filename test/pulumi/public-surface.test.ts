/**
 * The package's surface as a consumer meets it (test/support/consumerProject.ts): `ovnk-pulumi`
 * exports what a program uses, the dynamic resources and the component classes a program cannot
 * construct live behind `ovnk-pulumi/internal`, and `ovnk-pulumi/runtime` is only the dynamic
 * providers' entry (the name every serialized shim requires, in every stack's state).
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsumerProject, consumerProject } from '../support/consumerProject';

let project: ConsumerProject;
beforeAll(() => {
  project = consumerProject('ovnk-surface-');
});
afterAll(() => project.remove());

/** The value names a package path exports, as the consumer's Node resolves it. */
function valueNames(path: string): string[] {
  const script = `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(path)})).sort()))`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: project.dir, encoding: 'utf8' }));
}

describe('the public surface from a consumer project', () => {
  it('the root exports the Cluster, its targets and topology files, and no dynamic resource or loader', () => {
    expect(valueNames('ovnk-pulumi')).toEqual([
      'Cluster',
      'UnusableInputError',
      'kubernetesTarget',
      'networkKey',
      'northbound',
      'objectRef',
      'topologyFromFiles',
    ]);
  });

  it('ovnk-pulumi/runtime is the shims entry only: pulumiKinds (every kind a stored shim names) and the state version', () => {
    expect(valueNames('ovnk-pulumi/runtime')).toEqual(['SCHEMA_VERSION', 'pulumiKinds']);
    const kinds = `process.stdout.write(JSON.stringify(Object.keys(require('ovnk-pulumi/runtime').pulumiKinds).sort()))`;
    expect(JSON.parse(execFileSync(process.execPath, ['-e', kinds], { cwd: project.dir, encoding: 'utf8' }))).toEqual([
      'ClusterAllocations',
      'ClusterPrediction',
      'ConnectRouter',
      'NetworkRows',
      'UplinkState',
      'ZoneRows',
    ]);
  });

  it('ovnk-pulumi/internal holds the dynamic resources, the component classes and the Kubernetes loader', () => {
    expect(valueNames('ovnk-pulumi/internal')).toEqual(
      expect.arrayContaining([
        'ClusterAllocations',
        'ClusterPrediction',
        'ConnectRouter',
        'Layer2Network',
        'Layer3Network',
        'LocalnetNetwork',
        'NetworkConnect',
        'NetworkRows',
        'Uplink',
        'UplinkState',
        'ZoneRows',
        'loadKubernetes',
      ]),
    );
  });

  it('a strict program names the component types it reads from a Cluster, and cannot construct them or import the internals from the root', () => {
    const reads = project.write(
      'reads.ts',
      `import { Cluster, type Layer3Network, type NetworkConnect, type Uplink, type AllocationsOutput } from 'ovnk-pulumi';
export function parts(cluster: Cluster): [Layer3Network | undefined, NetworkConnect | undefined, Uplink | undefined] {
  const blue = cluster.networks['blue'] as Layer3Network | undefined;
  return [blue, cluster.connects['c'], cluster.uplinks['u']];
}
export type Ids = AllocationsOutput['networkIds'];
`,
    );
    expect(project.typeErrors([reads])).toEqual([]);
    const constructs = project.write(
      'constructs.ts',
      `import { Layer3Network } from 'ovnk-pulumi';
import { ClusterAllocations } from 'ovnk-pulumi';
export const made = new Layer3Network('x', {} as never);
export const kind = ClusterAllocations;
`,
    );
    expect(project.typeErrors([constructs])).toEqual([
      "Module '\"ovnk-pulumi\"' has no exported member 'ClusterAllocations'.",
      "'Layer3Network' cannot be used as a value because it was exported using 'export type'.",
    ]);
  });
});
