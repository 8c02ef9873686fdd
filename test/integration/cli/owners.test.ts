import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOf, ovnk } from '../../support/cli';
import { startOvsdbServer, type OvsdbServer } from '../../support/ovsdbServer';

const run = promisify(execFile);

/** One Layer3 network `name` of owner `owner` (the Inventory's name). */
const topology = (owner: string, name: string, cidr: string) => `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: ${owner}}
spec:
  zones: central
  namespaces: [{name: ${name}, labels: {network: ${name}}}]
  nodes: [{name: n1}, {name: n2}]
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: ${name}}
spec:
  namespaceSelector: {matchLabels: {network: ${name}}}
  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: ${cidr}, hostSubnet: 24}]}}
`;

let server: OvsdbServer;
let dir: string;
const nbctl = async (...args: string[]) => (await run('ovn-nbctl', [`--db=${server.unix}`, ...args])).stdout.trim();

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

beforeAll(async () => {
  server = await startOvsdbServer();
  dir = mkdtempSync(join(tmpdir(), 'ovnk-owners-'));
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('ovnk apply beside rows of others', () => {
  it('refuses (exit 1) naming the foreign row that holds a unique name of ours, and writes nothing', async () => {
    const blue = file('blue.yaml', topology('cli-a', 'blue', '10.10.0.0/16'));
    const port = 'rtos-cluster_udn_blue_n1';
    await nbctl('lr-add', 'theirs', '--', 'lrp-add', 'theirs', port, '0a:00:00:00:00:01', '192.0.2.1/24');
    const refused = ovnk(['apply', '-f', blue, '--nb', server.unix, '-o', 'json']);
    expect(refused.code).toBe(1);
    const document = documentOf(refused);
    expect(document.zones.central.problems).toEqual([
      {
        reason: 'ForeignRowClash',
        path: `Logical_Router_Port (${port})`,
        message: expect.stringMatching(
          new RegExp(`Logical_Router_Port \\(${port}\\) already exists as a row without an ovnk owner marker`),
        ),
      },
    ]);
    expect(await nbctl('--bare', '--columns=name', 'list', 'Logical_Router')).toBe('theirs');
    await nbctl('lr-del', 'theirs');
    expect(ovnk(['apply', '-f', blue, '--nb', server.unix]).code).toBe(0);
    expect(ovnk(['destroy', '-f', blue, '--nb', server.unix]).code).toBe(0);
  });
});
