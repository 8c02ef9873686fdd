/**
 * Inputs in ClusterArgs as a consumer meets them (test/support/consumerProject.ts; issue 29.1): a
 * strict TypeScript program passes a connect's CIDR from another resource's Output (an IPAM pool
 * of its own provider, answered by its own mocks) and a node's labels as an Output, and runs under
 * `ovnkMocks`: at update the allocation resource's check takes the resolved CIDR; at preview, with
 * the CIDR unknown, the program registers its resources (one ZoneRows per node) without error.
 * The node list given as an Output is refused before anything is registered, naming its path. In
 * Kubernetes mode the same program registers the connect's custom resource with the resolved CIDR,
 * and a CIDR the CRD refuses, arriving through the Output, is refused by ClusterPrediction's check.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsumerProject, consumerProject } from '../support/consumerProject';
import { topologyArgs } from './fixtures';

const program = `
import * as pulumi from '@pulumi/pulumi';
import { readFileSync } from 'node:fs';
import { Cluster, type ClusterArgs, type ClusterNetworkConnectArgs, kubernetesTarget } from 'ovnk-pulumi';
import { ovnkMocks } from 'ovnk-pulumi/testing';

const [mode, previewArg] = [process.argv[2], process.argv[3]];
const preview = previewArg === 'true';
const registered: string[] = [];
let connectObject: unknown;
void pulumi.runtime.setMocks(
  ovnkMocks({
    newResource: (args) => {
      registered.push(args.type);
      // Kubernetes mode: the ClusterNetworkConnect custom resource as the API server would get it
      if (args.type.endsWith(':ClusterNetworkConnect')) connectObject = args.inputs;
      // the pool's CIDR exists once the pool does: unknown at preview
      const cidr = mode === 'kubernetes-bad' ? '192.170.0.0/33' : '192.170.0.0/16';
      if (args.type === 'acme:ipam:Pool') return { id: 'pool', state: preview ? {} : { cidr } };
      return { id: args.name + '-id', state: args.inputs };
    },
  }),
  'consumer',
  'dev',
  preview,
);

class Pool extends pulumi.CustomResource {
  declare readonly cidr: pulumi.Output<string>;
  constructor(name: string) {
    super('acme:ipam:Pool', name, { cidr: undefined });
  }
}
const pool = new Pool('connects');
const args = JSON.parse(readFileSync('topology.json', 'utf8')) as Required<Pick<ClusterArgs, 'inventory' | 'connects' | 'networks'>>;
const plain = args.connects[0]!;
const connect: ClusterNetworkConnectArgs = {
  ...plain,
  spec: { ...plain.spec, connectSubnets: [{ cidr: pool.cidr, networkPrefix: 24 }] },
};
const nodes = (args.inventory.spec.nodes ?? []).map((n, i) =>
  i === 0 ? { ...n, labels: pulumi.output({ rack: 'r1' }) } : n,
);
const inventory =
  mode === 'refuse'
    ? { ...args.inventory, spec: { ...args.inventory.spec, nodes: pulumi.output(nodes) as never } }
    : { ...args.inventory, spec: { ...args.inventory.spec, nodes } };
try {
  const target = mode?.startsWith('kubernetes') ? { target: kubernetesTarget() } : {};
  const cluster = new Cluster('c', { inventory, networks: args.networks, connects: [connect], ...target });
  cluster.allocations.apply((a) => {
    const annotations = a.connects[plain.metadata.name]?.annotations ?? {};
    setTimeout(() => process.stdout.write(JSON.stringify({ annotations, registered, connectObject })), 500);
  });
  if (preview) setTimeout(() => process.stdout.write(JSON.stringify({ registered })), 1500);
} catch (error) {
  const message = (error as Error).message;
  setTimeout(() => process.stdout.write(JSON.stringify({ error: message, registered })), 500);
}
`;

let project: ConsumerProject;
beforeAll(() => {
  project = consumerProject('ovnk-inputs-');
  project.write('topology.json', JSON.stringify(topologyArgs('colored-enterprise', 'per-node')));
  project.write('index.ts', program);
});
afterAll(() => project.remove());

const run = (mode: string, preview: boolean) =>
  JSON.parse(
    execFileSync(process.execPath, [join(project.dir, 'out', 'index.js'), mode, String(preview)], {
      cwd: project.dir,
      encoding: 'utf8',
      timeout: 60_000,
    }),
  );
const zoneRows = (registered: string[]) => registered.filter((t) => t === 'pulumi-nodejs:dynamic/ovnk:ZoneRows');

describe('ClusterArgs take Inputs from a consumer project', () => {
  it("type-checks a strict program whose connect CIDR is another resource's Output", () => {
    expect(project.typeErrors([join(project.dir, 'index.ts')])).toEqual([]);
  });

  it('at update, the allocation takes the CIDR the Output resolved to', () => {
    const result = run('inputs', false);
    expect(result.error).toBeUndefined();
    // alloc/annotations.ts: the connect's subnet annotation lists the subnets it was given
    expect(result.annotations['k8s.ovn.org/network-connect-subnet']).toContain('192.170.');
    expect(zoneRows(result.registered)).toHaveLength(3);
  });

  it('at preview, with the CIDR unknown, the program registers one ZoneRows per node and no error', () => {
    const result = run('inputs', true);
    expect(result.error).toBeUndefined();
    expect(zoneRows(result.registered)).toHaveLength(3);
  });

  it('in Kubernetes mode, the ClusterNetworkConnect custom resource carries the CIDR the Output resolved to', () => {
    const result = run('kubernetes', false);
    expect(result.error).toBeUndefined();
    expect(result.connectObject.spec.connectSubnets).toEqual([{ cidr: '192.170.0.0/16', networkPrefix: 24 }]);
    expect(result.annotations['k8s.ovn.org/network-connect-subnet']).toContain('192.170.');
    expect(zoneRows(result.registered)).toHaveLength(0);
  });

  it("in Kubernetes mode, a value the CRD refuses that arrives through an Output is refused by the prediction's check", () => {
    const ran = spawnSync(process.execPath, [join(project.dir, 'out', 'index.js'), 'kubernetes-bad', 'false'], {
      cwd: project.dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(ran.stdout).not.toContain('connectObject');
    expect(ran.stderr).toContain('c-allocations: connects[0]');
    expect(ran.stderr).toMatch(/connectSubnets/);
  });

  it('in Kubernetes mode at preview, with the CIDR unknown, the program registers its objects and no error', () => {
    const result = run('kubernetes', true);
    expect(result.error).toBeUndefined();
    expect(result.registered.filter((t: string) => t.endsWith(':ClusterNetworkConnect'))).toHaveLength(1);
  });

  it('the node list as an Output is refused before anything is registered, naming inventory.spec.nodes', () => {
    const result = run('refuse', false);
    expect(result.error).toMatch(
      /^Cluster c: inventory\.spec\.nodes is a pulumi Output or Promise, but it must be a plain value: the node list decides which resources exist \(one ZoneRows per node in the per-node layout\)/,
    );
    expect(result.registered).toEqual(['acme:ipam:Pool']);
  });
});
