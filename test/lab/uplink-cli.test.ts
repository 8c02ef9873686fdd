import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import '../setup/lab';
import { bridgeMappings, closeNodes, fixture } from './uplink-helpers';

const lab = inject('lab');
const cli = path.resolve(__dirname, '../../dist/cli/main.js');
const invalid = path.resolve(__dirname, '../fixtures/uplink-invalid.yaml');

function ovnk(...args: string[]): { code: number; json: Record<string, any>; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60_000 });
  return {
    code: result.status ?? -1,
    json: args.includes('json') ? JSON.parse(result.stdout) : {},
    stdout: result.stdout,
    stderr: result.stderr,
  };
}

afterAll(async () => {
  await closeNodes();
});

describe('ovnk and Uplinks', () => {
  it("plan offline shows selection and UplinkState names in upstream's shape", () => {
    const { code, json } = ovnk('plan', '-f', fixture, '-o', 'json');
    expect(code).toBe(0);
    expect(json.uplinkStates.map((s: { metadata: { name: string } }) => s.metadata.name)).toEqual([
      'blue.ovn-worker',
      'blue.ovn-worker2',
      'blue.ovn-worker3',
      'red.ovn-worker',
      'red.ovn-worker2',
      'red.ovn-worker3',
    ]);
    expect(json.uplinkStates[2]).toEqual({
      apiVersion: 'k8s.ovn.org/v1alpha1',
      kind: 'UplinkState',
      metadata: { name: 'blue.ovn-worker3' },
      spec: { uplinkName: 'blue', nodeName: 'ovn-worker3' },
      status: { type: 'OVSBridge', hostInterfaceName: 'blueb0', conditions: [] },
    });
    expect(
      json.uplinks.map((u: { kind: string; metadata: { name: string } }) => `${u.kind}/${u.metadata.name}`),
    ).toEqual(['Uplink/blue', 'Uplink/red']);
    expect(json.networks['cluster_udn_tenant-red']).toEqual({ uplinks: ['red'], conditions: [] });
  });

  it('plan with --lab shows per node what it found and would write', () => {
    const { code, stdout } = ovnk('plan', '-f', fixture, '--lab', lab.name);
    expect(code).toBe(0);
    expect(stdout).toContain('state blue.ovn-worker2: blue0 on br-blue vlan 100  Resolved=True');
    expect(stdout).toContain(
      'node ovn-worker3: would write ovn-bridge-mappings=physnet:breth0,cluster_udn_tenant-red:br-red',
    );
  });

  it('plan refuses an Uplink the CRD refuses before anything is computed (exit 3), naming the field and the value', () => {
    const { code, json } = ovnk('plan', '-f', invalid, '-o', 'json');
    expect(code).toBe(3);
    expect(json.problems).toEqual([
      {
        file: invalid,
        reason: 'InvalidField',
        path: 'Uplink/long: spec.nodeConfigs[0].hostInterfaceName',
        object: 'Uplink/long',
        message: 'spec.nodeConfigs[0].hostInterfaceName: Too long: may not be more than 15 bytes',
      },
    ]);
  });

  it('apply refuses bad Uplinks before anything is written', async () => {
    const before = await bridgeMappings(lab.nodes[0]!);
    const { code, json } = ovnk('apply', '-f', invalid, '--lab', lab.name, '-o', 'json');
    expect(code).toBe(3);
    expect(json).toMatchObject({
      ok: false,
      file: invalid,
      path: 'Uplink/long: spec.nodeConfigs[0].hostInterfaceName',
    });
    expect(await bridgeMappings(lab.nodes[0]!)).toBe(before);
  });
});
