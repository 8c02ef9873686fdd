import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adaptRows, compareSchemas, SchemaAdaptationError } from '../../../provider/nb/adapt';
import type { DesiredRow } from '../../../provider/nb/desired';
import { findRepoRoot } from '../../../provider/nb/generate/sources';
import { nbSchema } from '../../../provider/nb/generated/nb';
import type { DatabaseSchema } from '../../../provider/ovsdb/schema';

// The pinned bookworm schema (OVN 23.03.1, OVN_Northbound 7.0.0) as a fixture.
const bookworm: DatabaseSchema = JSON.parse(
  readFileSync(join(findRepoRoot(__dirname), '..', 'shared', 'schemas', 'ovn-nb.v23.03.1-debian.ovsschema'), 'utf8'),
);

const acl = (action: string, extra: Record<string, unknown> = {}): DesiredRow => ({
  table: 'ACL',
  columns: {
    priority: 1001,
    direction: 'to-lport',
    match: 'ip4',
    action,
    external_ids: { 'k8s.ovn.org/id': `acl-${action}` },
    ...extra,
  },
});

function refused(rows: DesiredRow[]): SchemaAdaptationError['problems'] {
  try {
    adaptRows(rows, nbSchema, bookworm);
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaAdaptationError);
    return (error as SchemaAdaptationError).problems;
  }
  throw new Error('expected a refusal');
}

const refusal = (rows: DesiredRow[]): string[] => refused(rows).map((p) => p.message);

describe('schema adaptation against OVN_Northbound 7.0.0', () => {
  it('lists every mismatch at once', () => {
    const messages = compareSchemas(nbSchema, bookworm).map((m) => m.message);
    expect(messages).toContain(
      'table Sample is missing (needs OVN_Northbound >= 7.6.0 for ACL sampling; server has 7.0.0)',
    );
    expect(messages).toContain('ACL.tier is missing (needs OVN_Northbound >= 7.0.3 for ACL tiers; server has 7.0.0)');
    expect(messages).toContain(
      'ACL.action lacks enum value "pass" (needs OVN_Northbound >= 7.0.4 for the ACL "pass" action; server has 7.0.0)',
    );
    expect(messages).toContain(
      'Logical_Router_Policy.action lacks enum value "jump" (needs OVN_Northbound >= 7.9.1 for router policy chains; server has 7.0.0)',
    );
    expect(messages).toContain(
      'Logical_Router_Port.networks: at least 0 value(s) in ours, 1 on the server (needs OVN_Northbound >= 7.8.0 for router ports without addresses; server has 7.0.0)',
    );
    expect(messages).toContain(
      'QoS.action: value maxInteger is 4294967295 in ours, 63 on the server (needs OVN_Northbound >= 7.3.0 for QoS packet marking; server has 7.0.0)',
    );
    expect(messages).toHaveLength(new Set(messages).size);
    expect(messages.length).toBeGreaterThan(30);
  });

  it('finds nothing to report when both sides are the same schema', () => {
    expect(compareSchemas(nbSchema, nbSchema)).toEqual([]);
    expect(compareSchemas(bookworm, bookworm)).toEqual([]);
  });

  it('refuses a pass ACL before the transaction, naming table, value, version and feature', () => {
    expect(refusal([acl('pass')])).toEqual([
      'ACL "acl-pass": ACL.action="pass" is not allowed (needs OVN_Northbound >= 7.0.4 for the ACL "pass" action; server has 7.0.0)',
    ]);
  });

  it('leaves out a missing column whose value is its default', () => {
    const [adapted] = adaptRows([acl('allow-related', { tier: 0, sample_new: undefined })], nbSchema, bookworm);
    expect(adapted.columns).not.toHaveProperty('tier');
    expect(adapted.columns).not.toHaveProperty('sample_new');
    expect(adapted.columns.action).toBe('allow-related');
  });

  it('refuses a missing column whose value is not its default, with every other problem', () => {
    const policy: DesiredRow = {
      table: 'Logical_Router_Policy',
      columns: { priority: 99999, match: 'ip4', action: 'jump', chain: 'c1', external_ids: { 'k8s.ovn.org/id': 'p1' } },
    };
    const port: DesiredRow = {
      table: 'Logical_Router_Port',
      columns: { name: 'lrp-x', mac: '0a:00:00:00:00:01', networks: [] },
    };
    expect(refusal([acl('allow', { tier: 2 }), policy, port])).toEqual([
      'ACL "acl-allow": ACL.tier=2 cannot be written (needs OVN_Northbound >= 7.0.3 for ACL tiers; server has 7.0.0)',
      'Logical_Router_Policy "p1": Logical_Router_Policy.priority=99999 is outside the server\'s range [0, 32767]',
      'Logical_Router_Policy "p1": Logical_Router_Policy.action="jump" is not allowed (needs OVN_Northbound >= 7.9.1 for router policy chains; server has 7.0.0)',
      'Logical_Router_Policy "p1": Logical_Router_Policy.chain="c1" cannot be written (needs OVN_Northbound >= 7.9.1 for router policy chains; server has 7.0.0)',
      'Logical_Router_Port "lrp-x": Logical_Router_Port.networks=[]: the server needs at least 1 value(s) (needs OVN_Northbound >= 7.8.0 for router ports without addresses; server has 7.0.0)',
    ]);
  });

  it('refuses a string longer than the server allows', () => {
    expect(refusal([acl('drop', { name: 'x'.repeat(64) })])[0]).toMatch(
      /ACL.name="x+" has 64 bytes; the server allows 0 to 63$/,
    );
  });

  it('says each refusal by a reason and names its row by table and identity, not only in words', () => {
    const sample: DesiredRow = { table: 'Sample_Collector', columns: { name: 'c', id: 1, set_id: 1 } };
    expect(
      refused([acl('allow', { tier: 2 }), acl('pass'), sample]).map((p) => [p.reason, p.table, p.identity]),
    ).toEqual([
      ['missingColumn', 'ACL', 'acl-allow'],
      ['valueRefused', 'ACL', 'acl-pass'],
      ['missingTable', 'Sample_Collector', 'c'],
    ]);
  });

  it('refuses a table the server lacks', () => {
    const sample: DesiredRow = {
      table: 'Sample_Collector',
      columns: { name: 'c', id: 1, set_id: 1, probability: 65535 },
    };
    expect(refusal([sample])).toEqual([
      'Sample_Collector "c": table Sample_Collector is missing (needs OVN_Northbound >= 7.6.0 for ACL sampling; server has 7.0.0)',
    ]);
  });
});
