import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planTopology } from '../../../provider/runtime/plan';
import { ensureBuilt, PlanChild, repo } from '../../support/planChild';

// Issue 15 point 8: a connect named `constructor` or `__proto__` crashed the planner (a plain `{}`
// keyed by user names found Object.prototype's members). Every name a user gives is now only a
// key: each slot of a topology renamed to a member of Object.prototype plans exactly as the same
// topology with a neutral name of the same sort position, or is refused with the path naming it.

const base = `${readFileSync(join(repo, 'test', 'fixtures', 'blue-green.yaml'), 'utf8')}`.replace(
  '  nodes:\n',
  '  pods:\n  - {name: a, namespace: blue, node: ovn-worker}\n  - {name: b, namespace: green, node: ovn-worker2}\n  nodes:\n',
);

/** The names a user gives in the fixture: connect, networks, namespaces, nodes, pods, label keys and values. */
const slots = [
  'blue-green-connect',
  'blue-network',
  'green-network',
  'blue',
  'green',
  'ovn-worker',
  'ovn-worker2',
  'ovn-control-plane',
  'a',
  'network',
  'app',
  'colored-enterprise',
];
const members = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];
/** Same length, same place in sort order, no meaning to a JavaScript object. */
const neutral = (name: string) => `${name.slice(0, -1)}${name.endsWith('x') ? 'y' : 'x'}`;

const rename = (text: string, from: string, to: string) =>
  text.replace(new RegExp(`(?<![\\w.-])${from.replace(/[.-]/g, '\\$&')}(?![\\w.-])`, 'g'), to);

/** What a plan document says, without what a name's hash changes (row names and ids). */
function shape(code: number, stdout: string, renamed: string, as: string) {
  const document = JSON.parse(stdout.split(renamed).join(as));
  return {
    code,
    ok: document.ok,
    problems: (document.problems ?? []).map((p: { path: string; reason: string }) => `${p.reason} ${p.path}`),
    path: document.path,
    allocations: document.allocations,
    connects: Object.keys(document.connects ?? {}),
    rows: Object.fromEntries(
      Object.entries(document.zones ?? {}).map(([zone, tables]) => [
        zone,
        Object.fromEntries(Object.entries(tables as Record<string, unknown[]>).map(([t, rows]) => [t, rows.length])),
      ]),
    ),
  };
}

describe('names that Object.prototype also has', () => {
  it('plan in-process: a connect named constructor is accepted and allocated under its own key', () => {
    const result = planTopology(rename(base, 'blue-green-connect', 'constructor'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.plan.allocation.connects)).toEqual(['constructor']);
    expect(result.plan.allocation.connects.constructor).toMatchObject({ accepted: true, tunnelKey: 16715779 });
    expect(result.plan.problems).toEqual([]);
  });

  it('plan in-process: a node named constructor gets an id and a zone like any node; __proto__ is refused by its path', () => {
    const result = planTopology(rename(base, 'ovn-worker', 'constructor'));
    expect(result.ok && Object.keys(result.plan.allocation.nodeIds).sort()).toEqual([
      'constructor',
      'ovn-control-plane',
      'ovn-worker2',
    ]);
    expect(result.ok && result.plan.zones.map((z) => z.name).sort()).toEqual([
      'constructor',
      'ovn-control-plane',
      'ovn-worker2',
    ]);
    const refused = planTopology(rename(base, 'ovn-worker', '__proto__'));
    expect(refused.ok || refused.problems.map((p) => p.path)).toEqual(['Inventory/lab: spec.nodes[1].name']);
  });

  describe('ovnk plan', () => {
    let dir: string;
    const child = new PlanChild();
    beforeAll(() => {
      ensureBuilt();
      dir = mkdtempSync(join(tmpdir(), 'ovnk-names-'));
    }, 120_000);
    afterAll(() => {
      child.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    const plan = async (text: string) => {
      const file = join(dir, 'topology.yaml');
      writeFileSync(file, text);
      const outcome = await child.run(['plan', '-f', file, '-o', 'json'], 15_000);
      if (outcome.kind !== 'done') throw new Error(`ovnk plan did not finish: ${JSON.stringify(outcome)}`);
      return outcome;
    };

    it.each(slots)(
      'plans "%s" renamed to each member of Object.prototype as it plans a neutral name',
      async (slot) => {
        for (const member of members) {
          const odd = await plan(rename(base, slot, member));
          const plain = await plan(rename(base, slot, neutral(member)));
          expect(shape(odd.code, odd.stdout, member, neutral(member)), `${slot} -> ${member}`).toEqual(
            shape(plain.code, plain.stdout, neutral(member), neutral(member)),
          );
          expect([0, 3], `${slot} -> ${member}`).toContain(odd.code);
        }
      },
      60_000,
    );
  });
});
