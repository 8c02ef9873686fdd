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

/** The row named `name` anywhere in a zone's tables, children inside their parents included. */
function named(value: unknown, name: string): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if ((value as { name?: unknown }).name === name) return value as Record<string, unknown>;
  for (const child of Object.values(value)) {
    const found = named(child, name);
    if (found) return found;
  }
  return undefined;
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

  it("plan with --lab gives an Uplink CUDN's gateway router the external side of its UplinkState, not breth0 (issue 16 point 6)", () => {
    const { code, json } = ovnk('plan', '-f', fixture, '--lab', lab.name, '-o', 'json');
    expect(code).toBe(0);
    const state = json.uplinkStates.find((s: { metadata: { name: string } }) => s.metadata.name === 'red.ovn-worker');
    const { ovsBridge, macAddress, ipAddresses } = state.status;
    expect(ovsBridge.name).toBe('br-red');
    const p = 'cluster_udn_tenant.red_';
    const tables = json.zones.central;
    const router = tables.Logical_Router.find((r: { name: string }) => r.name === `GR_${p}ovn-worker`);
    expect(router.external_ids.physical_ip).toBe(ipAddresses[0].split('/')[0]);
    const ext = tables.Logical_Switch.find((s: { name: string }) => s.name === `ext_${p}ovn-worker`);
    expect(JSON.stringify(ext)).toContain(`"br-red_${p}ovn-worker"`);
    expect(JSON.stringify(ext)).not.toContain(`"breth0_${p}ovn-worker"`);
    const rtoe = named(tables, `rtoe-GR_${p}ovn-worker`);
    expect(rtoe).toMatchObject({ mac: macAddress, networks: expect.arrayContaining([ipAddresses[0]]) });
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
