import { describe, expect, it } from 'vitest';
import { asCliError } from '../../../cli/commands/cliErrors';
import { labCliError, labNotRunning } from '../../../cli/commands/labErrors';
import { errorDocument } from '../../../cli/contract';
import { LabError } from '../../../lab/errors';
import { SchemaAdaptationError } from '../../../provider/nb/adapt';
import { ReconcileError } from '../../../provider/nb/reconcile';
import { rowProblem } from '../../../provider/nb/rowProblems';

// Issue 15 point 9: refusals (exit 1) that named nothing. Each of these reached exit 1 with
// problems that were bare strings, or with no problems at all.

const documentOf = (error: unknown) => errorDocument(error);

describe('every refusal lists its problems with a reason and a path', () => {
  it("names the row the server's schema cannot take", () => {
    const pass =
      'ACL "acl-1": ACL.action="pass" is not allowed (needs OVN_Northbound >= 7.0.4 for the ACL "pass" action; server has 7.0.0)';
    const { exitCode, document } = documentOf(
      asCliError(
        new SchemaAdaptationError([
          rowProblem('valueRefused', 'ACL', 'acl-1', pass),
          rowProblem('missingTable', 'Logical_Router', undefined, 'Logical_Router: table Logical_Router is missing'),
        ]),
        'f.yaml',
      ),
    );
    expect(exitCode).toBe(1);
    expect(document.problems).toEqual([
      { reason: 'SchemaMismatch', path: 'ACL "acl-1"', message: pass },
      { reason: 'SchemaMismatch', path: 'Logical_Router', message: 'Logical_Router: table Logical_Router is missing' },
    ]);
  });

  it('names the row that cannot be reconciled, quoted identities included', () => {
    const problems = [
      'desired row 0 (Logical_Router "lr1"): Logical_Router has no column(s) bogus',
      'desired row 3 (AutoAttach): table AutoAttach is not in OVN_Northbound 7.18.0',
      'Logical_Router "a \\"b\\": c" column copp: reference "x": Copp "x" is neither in the desired rows nor among the observed rows',
    ];
    const rows = [
      rowProblem('unknownColumns', 'Logical_Router', 'lr1', problems[0]!),
      rowProblem('unknownTable', 'AutoAttach', undefined, problems[1]!),
      rowProblem('unresolvedReference', 'Logical_Router', 'a "b": c', problems[2]!),
    ];
    const { exitCode, document } = documentOf(asCliError(new ReconcileError(rows), 'f.yaml'));
    expect(exitCode).toBe(1);
    expect((document.problems as { path: string }[]).map((p) => p.path)).toEqual([
      'Logical_Router "lr1"',
      'AutoAttach',
      'Logical_Router "a \\"b\\": c"',
    ]);
    expect(document.problems).toEqual(
      problems.map((message) => ({ reason: 'CannotReconcile', path: expect.any(String), message })),
    );
  });

  it('names ovnk repair only when a row of ours is found outside our ledger, whatever the words', () => {
    const words = 'Load_Balancer_Group "g": a row with this identity already exists';
    const twin = asCliError(
      new ReconcileError([rowProblem('foreignTwin', 'Load_Balancer_Group', 'g', words)]),
      'f.yaml',
    ) as Error;
    const other = asCliError(
      new ReconcileError([rowProblem('duplicateIdentity', 'Load_Balancer_Group', 'g', words)]),
      'f.yaml',
    ) as Error;
    expect(twin.message).toMatch(/`ovnk repair` rebuilds the ledger/);
    expect(other.message).not.toMatch(/ovnk repair/);
  });

  it("takes a refusal's row from its table and identity, not from its words", () => {
    const words = 'the reference names a row that is in no table we know';
    const { document } = documentOf(
      asCliError(new ReconcileError([rowProblem('unresolvedReference', 'ACL', 'acl-1', words)]), 'f.yaml'),
    );
    expect(document.problems).toEqual([{ reason: 'CannotReconcile', path: 'ACL "acl-1"', message: words }]);
  });

  it('names the lab when the lab refuses or is not running', () => {
    const refused = documentOf(labCliError(new LabError('refused', 'the lab needs root'), 'lab1'));
    expect([refused.exitCode, refused.document.problems]).toEqual([
      1,
      [{ reason: 'LabRefused', path: 'lab "lab1"', message: 'the lab needs root' }],
    ]);
    const down = documentOf(labNotRunning('lab2', 'lab "lab2" is not running'));
    expect(down.document.problems).toEqual([
      { reason: 'LabNotRunning', path: 'lab "lab2"', message: 'lab "lab2" is not running' },
    ]);
    expect(documentOf(labCliError(new LabError('failing', 'ovsdb-server died'), 'lab1')).exitCode).toBe(4);
  });
});
