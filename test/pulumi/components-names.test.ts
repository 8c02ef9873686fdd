import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import * as ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import type { NetworkObject, UplinkObject, UserDefinedNetworkObject } from '../../components';
import { repoRoot, topologyArgs } from './fixtures';
import { installMocks, recordAliases, type Registered, settle, valueOf } from './mocks';

const urnOf = (parents: string, name: string) => `urn:pulumi:test::ovnk-pulumi::${parents}::${name}`;
const CLUSTER = 'ovnk:cluster:Cluster';

/** The `@example` blocks of a components source file, without their ` * ` margins. */
function examplesOf(file: string): string[] {
  const text = readFileSync(join(repoRoot, 'components', file), 'utf8');
  return [...text.matchAll(/@example\n((?: \*(?: .*)?\n)+?) \*\//g)].map((m) =>
    m[1]!.replace(/^ \* ?/gm, '').trimEnd(),
  );
}

const header = (components: string) =>
  `import { Cluster, Layer2Network, Layer3Network, LocalnetNetwork, NetworkConnect, Uplink, type InventoryObject, type NetworkObject } from ${JSON.stringify(components)};\n`;

/**
 * Type errors of the examples in a user's strict program, checked against the components' sources
 * (their declarations are what dist/ ships, and a dist/ older than the sources cannot fail this).
 */
function typeErrors(examples: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'ovnk-examples-'));
  try {
    const files = examples.map((code, i) => {
      const file = join(dir, `example${i}.ts`);
      writeFileSync(file, header(join(repoRoot, 'components')) + code + '\n');
      return file;
    });
    const program = ts.createProgram(files, {
      strict: true,
      noUncheckedIndexedAccess: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      esModuleInterop: true,
      resolveJsonModule: true,
      skipLibCheck: true,
      noEmit: true,
    });
    const own = files.map((file) => program.getSourceFile(file)!);
    return [
      ...program.getOptionsDiagnostics(),
      ...own.flatMap((f) => program.getSyntacticDiagnostics(f)),
      ...own.flatMap((f) => program.getSemanticDiagnostics(f)),
    ].map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('component names and examples under mocks', () => {
  let registered: Registered[] = [];
  let aliases: Map<string, string[]>;
  let components: typeof import('../../components');
  // the component classes as values: not exported by `ovnk-pulumi` (a program cannot make them)
  let internal: typeof import('../../components/internal');
  beforeAll(async () => {
    registered = installMocks(false);
    aliases = recordAliases();
    components = await import('../../components');
    internal = await import('../../components/internal');
  });
  const named = (prefix: string) => registered.filter((r) => r.name.startsWith(prefix));

  it('a cluster-scoped network keeps the URNs it had (component and rows) and carries no alias', async () => {
    const cluster = new components.Cluster('n1', topologyArgs('colored-enterprise', 'central'));
    await valueOf(cluster.allocations);
    await settle(() => named('n1').length, 10);
    const blue = cluster.networks['blue-network']!;
    expect(await valueOf(blue.urn)).toBe(urnOf(`${CLUSTER}$ovnk:network:Layer3Network`, 'n1-blue-network'));
    expect(registered.some((r) => r.name === 'n1-blue-network-rows')).toBe(true);
    expect(aliases.get('n1-blue-network')).toEqual([]);
    expect(aliases.get('n1-blue-network-rows')).toEqual([]);
    expect(await valueOf(cluster.connects['colored-enterprise']!.urn)).toBe(
      urnOf(`${CLUSTER}$ovnk:connect:NetworkConnect`, 'n1-colored-enterprise'),
    );
  });

  it("a UDN's names carry its namespace and alias the names it had, so an existing stack keeps its resources", async () => {
    const cluster = new components.Cluster('n2', topologyArgs('colored-enterprise', 'central'));
    await valueOf(cluster.allocations);
    await settle(() => named('n2').length, 10);
    const yellow = cluster.networks['yellow/yellow-network']!;
    expect(cluster.networks['yellow-network']).toBeUndefined();
    const component = `${CLUSTER}$ovnk:network:Layer2Network`;
    expect(await valueOf(yellow.urn)).toBe(urnOf(component, 'n2-yellow/yellow-network'));
    expect(aliases.get('n2-yellow/yellow-network')).toEqual([urnOf(component, 'n2-yellow-network')]);
    expect(aliases.get('n2-yellow/yellow-network-rows')).toEqual([
      urnOf(`${component}$pulumi-nodejs:dynamic/ovnk:NetworkRows`, 'n2-yellow-network-rows'),
    ]);
  });

  it('two UDNs with one name in two namespaces construct, each with its own rows and owner, and neither claims the old name', async () => {
    const args = topologyArgs('colored-enterprise', 'central');
    const yellow = args.networks.find((n) => n.metadata.name === 'yellow-network') as UserDefinedNetworkObject;
    const red: NetworkObject = {
      ...yellow,
      metadata: { name: 'yellow-network', namespace: 'red' },
      spec: { ...yellow.spec, layer2: { role: 'Primary', subnets: ['106.106.0.0/16', 'fd00:106::/64'] } },
    };
    const cluster = new components.Cluster('n3', { ...args, networks: [...args.networks, red] });
    await valueOf(cluster.allocations);
    await settle(() => named('n3').length, 12);
    expect(Object.keys(cluster.networks).sort()).toEqual([
      'blue-network',
      'green-network',
      'red/yellow-network',
      'yellow/yellow-network',
    ]);
    const rows = named('n3').filter((r) => r.name.endsWith('yellow-network-rows'));
    expect(rows.map((r) => [r.name, r.inputs.owner]).sort()).toEqual([
      ['n3-red/yellow-network-rows', 'ovnk-pulumi.test/network/UserDefinedNetwork/red/yellow-network'],
      ['n3-yellow/yellow-network-rows', 'ovnk-pulumi.test/network/UserDefinedNetwork/yellow/yellow-network'],
    ]);
    expect(aliases.get('n3-red/yellow-network')).toEqual([]);
    expect(aliases.get('n3-yellow/yellow-network')).toEqual([]);
    expect(await valueOf(cluster.networks['red/yellow-network']!.networkName)).toBe('red_yellow-network');
  });

  it('the JSDoc examples of Cluster, Layer3Network, Layer2Network, LocalnetNetwork, NetworkConnect and Uplink compile and run as written, with known outputs', async () => {
    const files = ['cluster.ts', 'network.ts', 'networkConnect.ts', 'uplink.ts'];
    // every component file with an example is run here (a new example joins this list)
    expect(
      readdirSync(join(repoRoot, 'components'))
        .sort()
        .filter((f) => f.endsWith('.ts') && examplesOf(f).length > 0),
    ).toEqual(files);
    const examples = files.flatMap(examplesOf);
    expect(examples).toHaveLength(6);
    expect(typeErrors(examples)).toEqual([]);
    const values: Record<string, unknown> = {};
    for (const code of examples) {
      const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
      const exports: Record<string, unknown> = {};
      // the examples use the component classes as types only (`ovnk-pulumi` exports them as types)
      new Function('exports', 'Cluster', js)(exports, components.Cluster);
      for (const [name, value] of Object.entries(exports))
        values[name] = pulumi.Output.isInstance(value) ? await valueOf(value) : value;
    }
    expect(values.ids).toEqual({ 'cluster_udn_blue-network': 1 });
    expect(values.blueId).toBe(1);
    expect(values.yellowRouter).toBe('yellow_yellow.network_transit_router');
    expect(values.key).toEqual(expect.any(Number));
    expect(values.redNodes).toEqual(['node-1', 'node-2']);
    expect(values.physicalId).toBe(1);
  }, 180_000); // type-checking the components' sources takes ~25 s alone, longer beside other helpers' runs

  it('a Cluster whose Inventory names an SSH key file is refused: the path would land in the state', () => {
    const args = topologyArgs('colored-enterprise', 'central');
    const spec = {
      ...args.inventory.spec,
      targets: { nodes: { 'ovn-worker': { host: 'h', keyPath: '/home/me/.ssh/id' } } },
    };
    expect(() => new components.Cluster('n6', { ...args, inventory: { ...args.inventory, spec } })).toThrow(
      'Cluster n6: spec.targets.nodes.ovn-worker.keyPath would be stored in the Pulumi state: remove it and give the key as ovnk:sshPrivateKey (a secret), ovnk:sshKeyFile, or an SSH agent (SSH_AUTH_SOCK)',
    );
  });

  it('objects without a prototype (as a hardened YAML loader makes them) construct a Cluster', async () => {
    const bare = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(bare);
      if (value === null || typeof value !== 'object') return value;
      return Object.assign(
        Object.create(null),
        Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bare(v)])),
      );
    };
    const args = bare(topologyArgs('colored-enterprise', 'central')) as ReturnType<typeof topologyArgs>;
    const cluster = new components.Cluster('n7', args);
    expect(Object.keys(await valueOf(cluster.allocations.apply((a) => a.networkIds)))).toHaveLength(3);
  });

  it('a network or connect component made on its own is refused with an error that says to use the Cluster', async () => {
    const args = topologyArgs('colored-enterprise', 'central');
    const cluster = new components.Cluster('n5', { ...args, networks: args.networks.slice(0, 1), connects: [] });
    const blue = args.networks[0]!;
    const yellow = args.networks.find((n) => n.metadata.name === 'yellow-network')!;
    expect(() => new internal.Layer2Network('y', { cluster, network: yellow })).toThrow(
      'ovnk:network:Layer2Network: UserDefinedNetwork/yellow/yellow-network is not among the Cluster\'s objects; a ovnk:network:Layer2Network cannot be made on its own: give the object to new Cluster(name, { ... }) and use cluster.networks["yellow/yellow-network"]',
    );
    expect(() => new internal.Layer3Network('b', { cluster, network: blue })).toThrow(
      'the Cluster already made the component of ClusterUserDefinedNetwork/blue-network; a ovnk:network:Layer3Network cannot be made on its own: use cluster.networks["blue-network"]',
    );
    expect(() => new internal.NetworkConnect('c', { cluster, connect: args.connects[0]! })).toThrow(
      'ClusterNetworkConnect/colored-enterprise is not among the Cluster\'s objects; a ovnk:connect:NetworkConnect cannot be made on its own: give the object to new Cluster(name, { ... }) and use cluster.connects["colored-enterprise"]',
    );
    await valueOf(cluster.allocations);
  });

  it('an Uplink made on its own is refused with an error that says to use the Cluster', async () => {
    const red: UplinkObject = {
      apiVersion: 'k8s.ovn.org/v1alpha1',
      kind: 'Uplink',
      metadata: { name: 'red' },
      spec: { nodeConfigs: [{ type: 'OVSBridge', nodeSelector: {}, hostInterfaceName: 'red0' }] },
    };
    const args = topologyArgs('colored-enterprise', 'central');
    const bare = new components.Cluster('n8', { ...args, connects: [] });
    expect(() => new internal.Uplink('r', { cluster: bare, uplink: red })).toThrow(
      'ovnk:uplink:Uplink: Uplink/red is not among the Cluster\'s objects; a ovnk:uplink:Uplink cannot be made on its own: give the object to new Cluster(name, { ... }) and use cluster.uplinks["red"]',
    );
    const withRed = new components.Cluster('n9', { ...args, connects: [], uplinks: [red] });
    expect(withRed.uplinks.red!.nodes.length).toBeGreaterThan(0);
    expect(() => new internal.Uplink('r2', { cluster: withRed, uplink: red })).toThrow(
      'ovnk:uplink:Uplink: the Cluster already made the component of Uplink/red; a ovnk:uplink:Uplink cannot be made on its own: use cluster.uplinks["red"]',
    );
    await Promise.all([valueOf(bare.allocations), valueOf(withRed.allocations)]);
  });
});
