import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cliPath, ovnk } from '../../support/cli';

// `ovnk inventory` through the real @kubernetes/client-node against a FAKE API server: a local
// HTTPS server (127.0.0.1, a certificate made here and pinned as the kubeconfig's CA) that answers
// the list and get endpoints the command uses with recorded
// objects, pages the node list, and checks the kubeconfig's bearer token. It is not a Kubernetes
// API server; no real cluster was read.
const TOKEN = 'fake-token-of-the-test';

const node = (name: string, id: string, subnet: string) => ({
  metadata: {
    name,
    labels: { 'kubernetes.io/hostname': name },
    annotations: {
      'k8s.ovn.org/node-id': id,
      'k8s.ovn.org/node-chassis-id': `chassis-${name}`,
      'k8s.ovn.org/node-subnets': `{"default":["10.244.${id}.0/24"],"cluster_udn_blue-network":["${subnet}"]}`,
      'k8s.ovn.org/l3-gateway-config': `{"default":{"mode":"shared","bridge-id":"breth0","mac-address":"0a:58:ac:12:00:0${id}","ip-addresses":["172.18.0.${id}/16"],"next-hops":["172.18.0.1"],"node-port-enable":"true","vlan-id":"0"}}`,
    },
  },
});

const recorded: Record<string, unknown> = {
  '/api/v1/nodes#1': { items: [node('ovn-worker', '3', '103.103.9.0/24')], metadata: { continue: 'page-2' } },
  '/api/v1/nodes#2': { items: [node('ovn-control-plane', '2', '103.103.4.0/24')], metadata: {} },
  '/api/v1/namespaces': {
    items: [{ metadata: { name: 'blue', labels: { 'kubernetes.io/metadata.name': 'blue', tenant: 'blue' } } }],
    metadata: {},
  },
  '/apis/k8s.cni.cncf.io/v1/network-attachment-definitions': {
    items: [
      {
        metadata: {
          name: 'blue-network',
          namespace: 'blue',
          annotations: { 'k8s.ovn.org/network-name': 'cluster_udn_blue-network', 'k8s.ovn.org/network-id': '7' },
        },
      },
    ],
    metadata: {},
  },
  '/apis/k8s.ovn.org/v1/clusternetworkconnects': { items: [], metadata: {} },
  '/api/v1/namespaces/ovn-kubernetes/configmaps/ovn-config': {
    metadata: { name: 'ovn-config' },
    data: { net_cidr: '10.244.0.0/16/24', svc_cidr: '10.96.0.0/16', mtu: '1400' },
  },
};

let server: Server;
let dir: string;
let tls: { key: Buffer; cert: Buffer };
let kubeconfig: string;
const seen: { path: string; authorization?: string }[] = [];
let refuseNodes = false;
let missingConnects = false;

function answer(req: IncomingMessage): { status: number; body: unknown } {
  const url = new URL(req.url ?? '/', 'http://fake');
  seen.push({ path: `${url.pathname}${url.search}`, authorization: req.headers.authorization });
  if (req.headers.authorization !== `Bearer ${TOKEN}`) return { status: 401, body: { message: 'Unauthorized' } };
  if (url.pathname === '/api/v1/nodes' && refuseNodes)
    return {
      status: 403,
      body: { kind: 'Status', message: 'nodes is forbidden: User "ci" cannot list resource "nodes"' },
    };
  if (url.pathname === '/apis/k8s.ovn.org/v1/clusternetworkconnects' && missingConnects)
    return { status: 404, body: { kind: 'Status', message: 'the server could not find the requested resource' } };
  const key =
    url.pathname === '/api/v1/nodes' ? `${url.pathname}#${url.searchParams.get('continue') ? 2 : 1}` : url.pathname;
  const body = recorded[key];
  return body === undefined ? { status: 404, body: { kind: 'Status', message: 'not found' } } : { status: 200, body };
}

function writeKubeconfig(port: number): string {
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, writeKubeconfigText(port));
  return file;
}

/** `ovnk ...` as a child process without blocking this process (the fake API server answers meanwhile). */
function run(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

beforeAll(async () => {
  ovnk(['--version']); // refuses a stale dist/
  dir = mkdtempSync(join(tmpdir(), 'ovnk-inventory-'));
  tls = selfSigned();
  server = createServer(tls, (req, res) => {
    const { status, body } = answer(req);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  kubeconfig = writeKubeconfig((server.address() as AddressInfo).port);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('ovnk inventory against a fake API server (real client library, recorded objects)', () => {
  it('writes the Inventory as YAML on stdout: nodes through every page, namespaces, NAD allocations, configmap settings', async () => {
    seen.length = 0;
    const result = await run(['inventory', '--kubeconfig', kubeconfig]);
    expect(result.code, result.stderr).toBe(0);
    const inventory = parse(result.stdout);
    expect(inventory.metadata).toEqual({ name: 'kind-ovn' });
    expect(inventory.spec.nodes.map((n: { name: string; id: number }) => [n.name, n.id])).toEqual([
      ['ovn-control-plane', 2],
      ['ovn-worker', 3],
    ]);
    expect(inventory.spec.nodes[1]).toMatchObject({
      chassisId: 'chassis-ovn-worker',
      hostSubnets: { 'cluster_udn_blue-network': ['103.103.9.0/24'] },
      gatewayBridge: 'breth0',
      nodeIPs: ['172.18.0.3/16'],
    });
    expect(inventory.spec.namespaces).toEqual([{ name: 'blue', labels: { tenant: 'blue' } }]);
    expect(inventory.spec.allocations).toEqual({
      networks: [{ name: 'cluster_udn_blue-network', id: 7 }],
      connects: [],
    });
    expect(inventory.spec).toMatchObject({
      clusterSubnets: ['10.244.0.0/16'],
      serviceCIDRs: ['10.96.0.0/16'],
      mtu: 1400,
    });
    expect(seen.filter((s) => s.path.startsWith('/api/v1/nodes')).map((s) => s.path)).toEqual([
      '/api/v1/nodes?limit=500',
      '/api/v1/nodes?continue=page-2&limit=500',
    ]);
    expect(seen.every((s) => s.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(result.stderr).toContain('configmap ovn-kubernetes/ovnkube-config does not exist');
  });

  it('gives an Inventory that ovnk plan takes, planning from the allocations the cluster recorded', async () => {
    const read = await run(['inventory', '--kubeconfig', kubeconfig, '--context', 'kind-ovn', '-o', 'json', '-q']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toBe('');
    const file = join(dir, 'inventory.json');
    writeFileSync(file, read.stdout);
    const blue = join(dir, 'blue.yaml');
    writeFileSync(
      blue,
      'apiVersion: k8s.ovn.org/v1\nkind: ClusterUserDefinedNetwork\nmetadata: {name: blue-network}\nspec:\n  namespaceSelector: {matchLabels: {tenant: blue}}\n  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 103.103.0.0/16, hostSubnet: 24}]}}\n',
    );
    const plan = await run(['plan', '-f', file, '-f', blue, '-o', 'json']);
    expect(plan.code, plan.stderr + plan.stdout.slice(0, 2000)).toBe(0);
    const document = JSON.parse(plan.stdout);
    expect(document.allocations.networkIds).toEqual({ 'cluster_udn_blue-network': 7 });
    expect(document.allocations.hostSubnets['cluster_udn_blue-network']).toEqual({
      'ovn-control-plane': ['103.103.4.0/24'],
      'ovn-worker': ['103.103.9.0/24'],
    });
  });

  it('notes a kind the cluster does not serve and still writes the Inventory', async () => {
    missingConnects = true;
    try {
      const result = await run(['inventory', '--kubeconfig', kubeconfig, '-o', 'json']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('the cluster serves no ClusterNetworkConnects (k8s.ovn.org/v1); none are read');
    } finally {
      missingConnects = false;
    }
  });

  it('exits 3 for a context the kubeconfig does not have and for no kubeconfig, naming what to give', async () => {
    const wrong = await run(['inventory', '--kubeconfig', kubeconfig, '--context', 'prod', '-o', 'json']);
    expect(wrong.code).toBe(3);
    expect(JSON.parse(wrong.stdout).error).toContain('has no context "prod" (it has kind-ovn)');
    const none = await run(['inventory', '-o', 'json'], withHome(join(dir, 'empty-home')));
    expect(none.code).toBe(3);
    expect(JSON.parse(none.stdout)).toMatchObject({ ok: false, path: '--kubeconfig' });
    expect(JSON.parse(none.stdout).error).toContain(join(dir, 'empty-home', '.kube', 'config'));
  });

  it("reads kubectl's default kubeconfig: the first file of $KUBECONFIG, else ~/.kube/config", async () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, '.kube'), { recursive: true });
    copyFileSync(kubeconfig, join(home, '.kube', 'config'));
    const fromHome = await run(['inventory', '-o', 'json', '-q'], withHome(home));
    expect(fromHome.code, fromHome.stdout).toBe(0);
    expect(JSON.parse(fromHome.stdout).metadata).toEqual({ name: 'kind-ovn' });
    // $KUBECONFIG wins over ~/.kube/config: its first file is unreadable here, so the read fails on it
    const missing = join(dir, 'no-such-kubeconfig');
    const env = { ...withHome(home), KUBECONFIG: [missing, kubeconfig].join(delimiter) };
    const fromVariable = await run(['inventory', '-o', 'json'], env);
    expect(fromVariable.code).toBe(3);
    expect(JSON.parse(fromVariable.stdout).file).toBe(missing);
  });

  it('exits 4 when the API server refuses the list, with its status and message, and when nothing answers', async () => {
    refuseNodes = true;
    try {
      const refused = await run(['inventory', '--kubeconfig', kubeconfig, '-o', 'json']);
      expect(refused.code).toBe(4);
      expect(JSON.parse(refused.stdout).error).toBe(
        'listing Nodes failed: HTTP 403: nodes is forbidden: User "ci" cannot list resource "nodes"',
      );
    } finally {
      refuseNodes = false;
    }
    const closed = createServer(tls);
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const dead = join(dir, 'dead');
    writeFileSync(dead, writeKubeconfigText(port));
    const unreachable = await run(['inventory', '--kubeconfig', dead, '-o', 'json']);
    expect(unreachable.code).toBe(4);
    expect(JSON.parse(unreachable.stdout).error).toMatch(
      /^listing (Nodes|Namespaces|NetworkAttachmentDefinitions|ClusterNetworkConnects) failed: /,
    );
  });
});

/** This process's environment with HOME moved and KUBECONFIG unset. */
function withHome(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.KUBECONFIG;
  return env;
}

function writeKubeconfigText(port: number): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: fake, cluster: {server: "https://127.0.0.1:${port}", certificate-authority-data: ${tls.cert.toString('base64')}}}]`,
    `users: [{name: ci, user: {token: ${TOKEN}}}]`,
    'contexts: [{name: kind-ovn, context: {cluster: fake, user: ci}}]',
    'current-context: kind-ovn',
  ].join('\n');
}

/** A throwaway key and self-signed certificate for 127.0.0.1 (the kubeconfig pins it as the CA). */
function selfSigned(): { key: Buffer; cert: Buffer } {
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=fake-apiserver',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}
