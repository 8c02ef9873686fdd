import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trixieRoot } from '../../../lab/trixie';
import { compareSchemas, SchemaAdaptationError } from '../../../provider/nb/adapt';
import { apply } from '../../../provider/nb/apply';
import type { DesiredRow } from '../../../provider/nb/desired';
import { nbSchema } from '../../../provider/nb/generated/nb';
import { OvsdbClient } from '../../../provider/ovsdb/client';
import { startOvsdbServer, type OvsdbServer } from '../../support/ovsdbServer';

// Trixie's OVN 25.03 serves OVN_Northbound 7.11.0. Its root exists once a `--ovn trixie` lab was
// built on this machine (lab/trixie.ts); without it there is no 7.11.0 schema to test against.
const schemaPath = join(trixieRoot(), 'usr', 'share', 'ovn', 'ovn-nb.ovsschema');

describe.runIf(existsSync(schemaPath))('schema adaptation against OVN_Northbound 7.11.0 (trixie)', () => {
  let server: OvsdbServer;
  let client: OvsdbClient;

  beforeAll(async () => {
    server = await startOvsdbServer({ schema: schemaPath });
    client = await OvsdbClient.connect(server.unix);
  });

  afterAll(async () => {
    client?.close();
    await server?.stop();
  });

  it('reports only what came after 7.11.0', async () => {
    const served = await client.getSchema('OVN_Northbound');
    expect(served.version).toBe('7.11.0');
    const messages = compareSchemas(nbSchema, served).map((m) => m.message);
    expect(messages).toContain(
      'Logical_Router_Policy.output_port is missing (needs OVN_Northbound >= 7.13.0 for router policy output ports; server has 7.11.0)',
    );
    expect(messages.filter((m) => m.startsWith('ACL.tier') || m.includes('"pass"') || m.includes('"jump"'))).toEqual(
      [],
    );
  });

  it('writes a pass ACL with a tier, and refuses a policy output port naming 7.13.0', async () => {
    const desired: DesiredRow[] = [
      { table: 'Logical_Switch', columns: { name: 'tier-ls', acls: ['acl-pass'] } },
      {
        table: 'ACL',
        columns: {
          priority: 1000,
          direction: 'to-lport',
          match: 'ip4',
          action: 'pass',
          tier: 1,
          external_ids: { 'k8s.ovn.org/id': 'acl-pass' },
        },
      },
    ];
    const applied = await apply(client, { owner: 'o-trixie', schema: nbSchema, desired });
    expect(applied.sent).toBe(true);
    const [acl] = (await client.transact('OVN_Northbound', [{ op: 'select', table: 'ACL', where: [] }]))[0].rows!;
    expect([acl.action, acl.tier]).toEqual(['pass', 1]);
    const policy: DesiredRow = {
      table: 'Logical_Router_Policy',
      columns: {
        priority: 10,
        match: 'ip4',
        action: 'reroute',
        nexthops: ['1.1.1.1'],
        output_port: 'x',
        external_ids: { 'k8s.ovn.org/id': 'pol' },
      },
    };
    const error = await apply(client, { owner: 'o-trixie', schema: nbSchema, desired: [...desired, policy] }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SchemaAdaptationError);
    expect((error as SchemaAdaptationError).problems.map((p) => p.message)).toEqual([
      'Logical_Router_Policy "pol": Logical_Router_Policy.output_port="x" cannot be written (needs OVN_Northbound >= 7.13.0 for router policy output ports; server has 7.11.0)',
    ]);
  });
});
