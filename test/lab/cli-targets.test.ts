import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { cudn, inventory, layer3, yamlOf } from '../support/objects';
import { NB_SCHEMA, startOvsdbServer, type OvsdbServer } from '../support/ovsdbServer';

// `ovnk apply/diff/destroy` against a Northbound beyond the lab: a test ovsdb-server with an ssl
// listener (certificates made with openssl in its temp dir) and a unix socket beside a lab node's
// Open_vSwitch database, reached with ovn-nbctl's TLS flags, OVN_NB_DB, and ssh:// through the
// node's sshd with a key file or an agent and a pinned host key. No key material may appear in
// stdout or stderr, whatever the outcome.
const lab = inject('lab');
const node = lab.nodes[0]!;
const cli = resolve(__dirname, '../../dist/cli/main.js');
const schema = lab.ovnRoot ? join(lab.ovnRoot, 'usr', 'share', 'ovn', 'ovn-nb.ovsschema') : NB_SCHEMA;
const socket = join(dirname(node.ovsDb.replace(/^unix:/, '')), 'ovnk-cli-targets-nb.sock');
const sshEndpoint = `ssh://${node.ssh.user}@${node.ssh.host}:${node.ssh.port}/unix:${socket}`;
const OWNER = 'cli-targets';
const dir = mkdtempSync(join(tmpdir(), 'ovnk-cli-targets-'));
const file = join(dir, 'blue.yaml');
let server: OvsdbServer;
let agent: ChildProcess | undefined;

const topology = yamlOf(
  inventory(OWNER, {
    zones: 'central',
    namespaces: [{ name: 'blue', labels: { tenant: 'blue' } }],
    nodes: [{ name: 'node-a' }, { name: 'node-b' }],
  }),
  cudn('blue-network', layer3('103.103.0.0/16', 24), { namespaceSelector: { matchLabels: { tenant: 'blue' } } }),
);
/** `ovnk <command>` of the file against the Northbound behind the node's sshd. */
const overSsh = (command: string) => [command, '-f', file, '--nb', sshEndpoint];
/** The node's key and its pinned host key. */
const keyAndPin = () => ['--ssh-key', node.ssh.keyPath, '--ssh-fingerprint', node.ssh.hostKeyFingerprint];

interface Run {
  status: number;
  out: string;
  json: { ok?: boolean; error?: string; path?: string; zones?: Record<string, { sent: boolean }> };
}

/** `ovnk ARGS` with only `env` beyond PATH/HOME (no OVN_NB_DB or SSH_AUTH_SOCK unless given). */
function ovnk(args: string[], env: Record<string, string> = {}): Run {
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  const run = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...base, ...env } });
  let json: Run['json'] = {};
  try {
    json = JSON.parse(run.stdout);
  } catch {
    // text output
  }
  return { status: run.status ?? -1, out: run.stdout + run.stderr, json };
}

const tlsFlags = (ca = 'ca-cert.pem') => [
  '--private-key',
  join(server.dir, 'client-key.pem'),
  '--certificate',
  join(server.dir, 'client-cert.pem'),
  '--ca-cert',
  join(server.dir, ca),
];

/** The base64 body lines of every private key the tests hand out: none may be printed. */
function secrets(): string[] {
  const files = [join(server.dir, 'client-key.pem'), node.ssh.keyPath, join(dir, 'stranger')];
  return files
    .filter((f) => existsSync(f))
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => l.length > 40 && !l.startsWith('-----')),
    );
}

function expectNoSecrets(run: Run): void {
  for (const line of secrets()) expect(run.out.includes(line)).toBe(false);
}

async function ownedNetworks(): Promise<number> {
  const client = await OvsdbClient.connect(server.unix);
  try {
    const [routers] = await client.transact('OVN_Northbound', [
      {
        op: 'select',
        table: 'Logical_Router',
        where: [['external_ids', 'includes', ['map', [['ovnk.io/owner', OWNER]]]]],
      } as never,
    ]);
    return routers!.rows?.length ?? 0;
  } finally {
    client.close();
  }
}

beforeAll(async () => {
  writeFileSync(file, topology);
  server = await startOvsdbServer({ schema, ssl: true, remotes: [`punix:${socket}`] });
}, 60_000);

afterAll(async () => {
  if (agent?.pid !== undefined) agent.kill();
  await server?.stop();
  rmSync(socket, { force: true });
  rmSync(dir, { recursive: true, force: true });
});

describe('ovnk against an ssl: Northbound', () => {
  it("--nb ssl: with ovn-nbctl's --private-key, --certificate and --ca-cert applies, and a second apply sends nothing", async () => {
    const applied = ovnk(['apply', '-f', file, '--nb', server.ssl!, ...tlsFlags(), '-o', 'json']);
    expect(applied.status, applied.out).toBe(0);
    expect(applied.json.zones!.central!.sent).toBe(true);
    expect(await ownedNetworks()).toBeGreaterThan(0);
    const again = ovnk(['apply', '-f', file, '--nb', server.ssl!, ...tlsFlags(), '-o', 'json']);
    expect(again.json.zones!.central!.sent).toBe(false);
    expectNoSecrets(applied);
  });

  it('OVN_NB_DB is the endpoint when neither --nb nor the file names one', () => {
    const diff = ovnk(['diff', '-f', file, ...tlsFlags(), '-o', 'json'], { OVN_NB_DB: server.ssl! });
    expect(diff.status, diff.out).toBe(0);
    const none = ovnk(['diff', '-f', file, '-o', 'json']);
    expect(none.status).toBe(3);
    expect(none.json.error).toContain('give --nb, --lab, spec.targets.zones.central.nb or OVN_NB_DB');
  });

  it('missing TLS flags exit 3 naming them; a CA that did not sign the server exits 4; no key material is printed', () => {
    const missing = ovnk(['diff', '-f', file, '--nb', server.ssl!, ...tlsFlags().slice(0, 4), '-o', 'json']);
    expect(missing.status).toBe(3);
    expect(missing.json.path).toBe('--ca-cert');
    expect(missing.json.error).toContain('give --private-key, --certificate and --ca-cert (missing: --ca-cert)');
    const wrongCa = ovnk(['diff', '-f', file, '--nb', server.ssl!, ...tlsFlags('other-ca-cert.pem'), '-o', 'json']);
    expect(wrongCa.status).toBe(4);
    expect(wrongCa.json.error).toContain(`cannot reach the Northbound at ${server.ssl}`);
    const wrongKey = ovnk([
      'diff',
      '-f',
      file,
      '--nb',
      server.ssl!,
      '--private-key',
      node.ssh.keyPath,
      ...tlsFlags().slice(2),
      '-o',
      'json',
    ]);
    expect(wrongKey.status).toBe(4);
    for (const run of [missing, wrongCa, wrongKey]) expectNoSecrets(run);
  });
});

describe('ovnk against an ssh:// Northbound through a lab node', () => {
  it('--ssh-key with --ssh-fingerprint reaches it: no drift, and nothing secret is printed', () => {
    const diff = ovnk([...overSsh('diff'), ...keyAndPin(), '-o', 'json']);
    expect(diff.status, diff.out).toBe(0);
    expectNoSecrets(diff);
  });

  it('--known-hosts pins the host key as well', () => {
    const scanned = execFileSync('ssh-keyscan', ['-p', String(node.ssh.port), node.ssh.host], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    writeFileSync(join(dir, 'known_hosts'), scanned);
    const diff = ovnk([...overSsh('diff'), '--ssh-key', node.ssh.keyPath, '--known-hosts', join(dir, 'known_hosts')]);
    expect(diff.status, diff.out).toBe(0);
  });

  it('the agent of SSH_AUTH_SOCK stands in for --ssh-key', async () => {
    const sock = join(dir, 'agent.sock');
    agent = spawn('ssh-agent', ['-D', '-a', sock], { stdio: 'ignore' });
    for (let i = 0; i < 100 && !existsSync(sock); i++) await new Promise((r) => setTimeout(r, 20));
    execFileSync('ssh-add', [node.ssh.keyPath], { env: { ...process.env, SSH_AUTH_SOCK: sock }, stdio: 'ignore' });
    const diff = ovnk([...overSsh('diff'), '--ssh-fingerprint', node.ssh.hostKeyFingerprint, '-o', 'json'], {
      SSH_AUTH_SOCK: sock,
    });
    expect(diff.status, diff.out).toBe(0);
  });

  it('a wrong pin or a key the node refuses exits 4 with the reason; no pin or no key exits 3; no key material is printed', () => {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'stranger')]);
    const base = [...overSsh('diff'), '-o', 'json'];
    const pin = ['--ssh-fingerprint', node.ssh.hostKeyFingerprint];
    const wrongPin = ovnk([...base, '--ssh-key', node.ssh.keyPath, '--ssh-fingerprint', `SHA256:${'A'.repeat(43)}`]);
    expect(wrongPin.status).toBe(4);
    expect(wrongPin.json.error).toMatch(/presented host key SHA256:\S+, but SHA256:A+ is pinned: refusing to connect/);
    const stranger = ovnk([...base, '--ssh-key', join(dir, 'stranger'), ...pin]);
    expect(stranger.status).toBe(4);
    expect(stranger.json.error).toContain('refused public-key authentication');
    const noPin = ovnk([...base, '--ssh-key', node.ssh.keyPath]);
    expect(noPin.status).toBe(3);
    expect(noPin.json.error).toContain('pin its host key with --known-hosts FILE or --ssh-fingerprint SHA256:...');
    const noKey = ovnk([...base, ...pin]);
    expect(noKey.status).toBe(3);
    expect(noKey.json.error).toContain('give --ssh-key FILE or run an SSH agent (SSH_AUTH_SOCK)');
    for (const run of [wrongPin, stranger, noPin, noKey]) expectNoSecrets(run);
  });

  it('destroy over the tunnel removes every row of this owner', async () => {
    const destroyed = ovnk([...overSsh('destroy'), ...keyAndPin()]);
    expect(destroyed.status, destroyed.out).toBe(0);
    expect(await ownedNetworks()).toBe(0);
  });
});
