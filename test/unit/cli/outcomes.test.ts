import { describe, expect, it } from 'vitest';
import { asCliError } from '../../../cli/commands/fileTarget';
import { errorDocument } from '../../../cli/contract';
import {
  ChangedByAnotherWriterError,
  ForeignRowClash,
  NotCommittedError,
  OutcomeUnknownError,
  UpstreamRowsError,
} from '../../../provider/runtime/cli';

const outcome = (error: Error) => errorDocument(asCliError(error, 'f.yaml'));

describe('how the CLI reports writes others interfered with, and outcomes in doubt', () => {
  it('is a refusal (exit 1) naming the problem when another writer kept changing what the plan read', () => {
    const { exitCode, document } = outcome(
      new ChangedByAnotherWriterError('unix:/nb.sock', 'expected Logical_Router "lr" (external_ids) is unchanged', 5),
    );
    expect(exitCode).toBe(1);
    expect(document.error).toBe(
      'refused: unix:/nb.sock: changed by another writer: expected Logical_Router "lr" (external_ids) is unchanged; tried 5 times, nothing was written',
    );
    expect(document.problems).toEqual([
      {
        reason: 'ChangedByAnotherWriter',
        message: expect.stringContaining('changed by another writer'),
        path: 'unix:/nb.sock',
      },
    ]);
  });

  it('is a refusal (exit 1) naming the row when a row that is not ours holds a unique value ours needs', () => {
    const { exitCode, document } = outcome(
      new ForeignRowClash('Logical_Router_Port', '(rtoj-x)', 'u-1', 'other', 'name (a unique index)'),
    );
    expect(exitCode).toBe(1);
    expect(document.problems).toEqual([
      {
        reason: 'ForeignRowClash',
        message: expect.stringContaining('a row of owner "other" (u-1)'),
        path: 'Logical_Router_Port (rtoj-x)',
      },
    ]);
  });

  it('is a refusal (exit 1) naming spec.adoptUpstreamRows when a zone holds rows upstream wrote for a planned network', () => {
    const { exitCode, document } = outcome(
      new UpstreamRowsError('unix:/nb.sock', ['Logical_Switch "cluster_udn_blue_ovn_layer2_switch"']),
    );
    expect(exitCode).toBe(1);
    expect(document.error).toContain('set spec.adoptUpstreamRows: true in the Inventory');
    expect(document.problems).toEqual([
      {
        reason: 'UpstreamRows',
        message: expect.stringContaining('nothing was written'),
        path: 'spec.adoptUpstreamRows',
      },
    ]);
  });

  it('is a target failure (exit 4) saying so when the transaction did not commit or its outcome is unknown', () => {
    const notCommitted = outcome(new NotCommittedError('unix:/nb.sock', 'closed'));
    expect([notCommitted.exitCode, notCommitted.document.outcome]).toEqual([4, 'not committed']);
    const unknown = outcome(new OutcomeUnknownError('unix:/nb.sock', 'closed', 'reading it back failed too'));
    expect([unknown.exitCode, unknown.document.outcome]).toEqual([4, 'unknown']);
    expect(unknown.document.error).toMatch(/run `ovnk diff`/);
  });
});
