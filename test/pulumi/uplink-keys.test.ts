import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { inventoryOf } from '../../lab';
import { loadDocuments } from '../../provider/model/load';
import { fillInventory } from '../../provider/runtime/inventoryMerge';
import { uplinkStateInputs, type YamlObject } from '../../provider/runtime/pulumi';
import {
  bridgeMappings,
  closeNodes,
  externalIds,
  fixture,
  restoreExternalIds,
  withoutKeyPaths,
} from '../lab/uplink-helpers';
import { dynamicUrn, linkedConsumer, type Props, PulumiHost, providerText } from '../support/pulumiHost';

// Where an UplinkState's SSH key comes from, through the dynamic-provider host against a lab node:
// a Pulumi secret (`ovnk:sshPrivateKey`), a key file named in stack config (`ovnk:sshKeyFile`) or
// the agent of SSH_AUTH_SOCK; never an Inventory `keyPath`, which check refuses because inputs are
// stored in the stack's state. No reply (what the engine stores) and no error carries a key or its path.
const lab = inject('lab');
const node = lab.nodes[0]!;
const OWNER = 'ovnk-pulumi.uplink-keys';
const dir = mkdtempSync(join(tmpdir(), 'ovnk-uplink-keys-'));
const consumer = { dir: '', remove: () => undefined } as { dir: string; remove: () => void };
const hosts: PulumiHost[] = [];
let shim = '';
let clusterShim = '';
let agent: ChildProcess | undefined;
let saved = '';

function objects(keep: boolean): { inventory: YamlObject; red: YamlObject; networks: YamlObject[] } {
  const loaded = loadDocuments(readFileSync(fixture, 'utf8'));
  const labInventory = inventoryOf(lab) as unknown as { spec: Record<string, unknown> };
  const docs = fillInventory(loaded.documents, keep ? labInventory : withoutKeyPaths(labInventory)).map(
    (d) => d.body as YamlObject,
  );
  return {
    inventory: docs.find((d) => d.kind === 'Inventory')!,
    red: docs.find((d) => d.kind === 'Uplink' && d.metadata?.name === 'red')!,
    networks: docs.filter((d) => d.kind === 'ClusterUserDefinedNetwork'),
  };
}

function props(keepKeyPath = false): Props {
  const { inventory, red, networks } = objects(keepKeyPath);
  return {
    __provider: shim,
    owner: `${OWNER}/uplink/red/${node.name}`,
    ...uplinkStateInputs(inventory, red, networks, node.name),
  };
}

/** A host whose process sees `agentSocket` as SSH_AUTH_SOCK (or no agent at all). */
async function startHost(config: Record<string, string>, agentSocket?: string): Promise<PulumiHost> {
  const before = process.env.SSH_AUTH_SOCK;
  if (agentSocket === undefined) delete process.env.SSH_AUTH_SOCK;
  else process.env.SSH_AUTH_SOCK = agentSocket;
  try {
    const host = await PulumiHost.start(consumer.dir);
    hosts.push(host);
    await host.configure(config);
    return host;
  } finally {
    if (before === undefined) delete process.env.SSH_AUTH_SOCK;
    else process.env.SSH_AUTH_SOCK = before;
  }
}

/** check, create, read, update and delete of this node's UplinkState; every reply, for the secret checks. */
async function lifecycle(host: PulumiHost, name: string): Promise<unknown[]> {
  const urn = dynamicUrn('UplinkState', name);
  const checked = await host.check(urn, {}, props());
  expect(checked.failures).toEqual([]);
  const created = await host.create(urn, checked.inputs);
  expect(await bridgeMappings(node)).toContain('cluster_udn_tenant-red:br-red');
  const read = await host.read(created.id, urn, created.properties);
  expect(read.properties.drift).toEqual({ lines: [], count: 0 });
  const updated = await host.update(created.id, urn, read.properties, checked.inputs);
  await host.delete(created.id, urn, updated.properties);
  expect(await bridgeMappings(node)).not.toContain('cluster_udn_tenant-red');
  return [checked, created, read, updated];
}

const keyText = () => readFileSync(node.ssh.keyPath, 'utf8');
const keyBody = () => keyText().split('\n')[1]!;

beforeAll(async () => {
  saved = await externalIds(node);
  Object.assign(consumer, linkedConsumer());
  shim = providerText('UplinkState');
  clusterShim = providerText('ClusterAllocations');
}, 60_000);

afterAll(async () => {
  for (const host of hosts) await host.stop();
  consumer.remove();
  if (agent?.pid !== undefined) agent.kill();
  await restoreExternalIds(node, saved);
  await closeNodes();
  rmSync(dir, { recursive: true, force: true });
});

describe("an UplinkState's SSH key", () => {
  it('an Inventory keyPath is refused by check, naming the property and where the key goes instead', async () => {
    const host = await startHost({ 'ovnk:sshKeyFile': node.ssh.keyPath });
    const { failures } = await host.check(dynamicUrn('UplinkState', 'path'), {}, props(true));
    expect(failures).toContainEqual({
      property: `inventory.spec.targets.nodes.${node.name}.keyPath`,
      reason: `InvalidField: spec.targets.nodes.${node.name}.keyPath would be stored in the Pulumi state: remove it and give the key as ovnk:sshPrivateKey (a secret), ovnk:sshKeyFile, or an SSH agent (SSH_AUTH_SOCK)`,
    });
  });

  it("ClusterAllocations' check refuses an Inventory keyPath too (its inventory input is stored as well)", async () => {
    const host = await startHost({});
    const { inventory, networks } = objects(true);
    const { failures } = await host.check(
      dynamicUrn('ClusterAllocations', 'path'),
      {},
      {
        __provider: clusterShim,
        owner: `${OWNER}/cluster`,
        inventory,
        networks,
        connects: [],
      },
    );
    expect(failures.map((f) => f.property)).toContain(`inventory.spec.targets.nodes.${node.name}.keyPath`);
  });

  it('from a Pulumi secret: the node is written, and no reply holds the key or its path', async () => {
    const host = await startHost({ 'ovnk:sshPrivateKey': keyText() });
    const text = JSON.stringify(await lifecycle(host, 'secret'));
    expect(text).not.toContain(keyBody());
    expect(text).not.toContain(node.ssh.keyPath);
    expect(text).not.toContain('keyPath');
  });

  it('from a key file named in stack config: the node is written, and no reply holds the path', async () => {
    const host = await startHost({ 'ovnk:sshKeyFile': node.ssh.keyPath });
    const text = JSON.stringify(await lifecycle(host, 'file'));
    expect(text).not.toContain(node.ssh.keyPath);
    expect(text).not.toContain(keyBody());
  });

  it('from the agent of SSH_AUTH_SOCK, with no key configured', async () => {
    const socket = join(dir, 'agent.sock');
    agent = spawn('ssh-agent', ['-D', '-a', socket], { stdio: 'ignore' });
    for (let i = 0; i < 100 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 20));
    execFileSync('ssh-add', [node.ssh.keyPath], { env: { ...process.env, SSH_AUTH_SOCK: socket }, stdio: 'ignore' });
    const host = await startHost({}, socket);
    const text = JSON.stringify(await lifecycle(host, 'agent'));
    expect(text).not.toContain(socket);
  });

  it('a key the node does not accept fails the create naming the node, never the key', async () => {
    const stranger = join(dir, 'stranger');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', stranger]);
    const strangerText = readFileSync(stranger, 'utf8');
    const host = await startHost({ 'ovnk:sshPrivateKey': strangerText });
    const urn = dynamicUrn('UplinkState', 'stranger');
    const checked = await host.check(urn, {}, props());
    const error = String(await host.create(urn, checked.inputs).catch((e: Error) => e));
    expect(error).toMatch(new RegExp(`node ${node.name}: .*refused public-key authentication.*with the given key`));
    expect(error).not.toContain(strangerText.split('\n')[1]!);
  });

  it('with no key configured and no agent, the create says where a key can come from', async () => {
    const host = await startHost({});
    const urn = dynamicUrn('UplinkState', 'none');
    const checked = await host.check(urn, {}, props());
    await expect(host.create(urn, checked.inputs)).rejects.toThrow(
      `node ${node.name} has no SSH key: set ovnk:sshPrivateKey (a secret), ovnk:sshKeyFile, or an SSH agent (SSH_AUTH_SOCK)`,
    );
  });
});
