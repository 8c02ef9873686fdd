/**
 * Every Uplink and UplinkState `ovnk` prints with `-o json` is an object upstream's CRDs accept
 * (test/fixtures' lab Uplinks, checked with the validators generated from the CRDs), and the
 * conditions' lastTransitionTime stays put while their status does (issue 25, point 3).
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { validateObject } from '../../provider/model/crd';
import '../setup/lab';
import { fixture } from './uplink-helpers';

const lab = inject('lab');
const cli = path.resolve(__dirname, '../../dist/cli/main.js');

function ovnk(...args: string[]): { code: number; json: Record<string, any>; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args, '-o', 'json'], { encoding: 'utf8', timeout: 120_000 });
  return { code: result.status ?? -1, json: JSON.parse(result.stdout), stderr: result.stderr };
}

/** Every emitted Uplink and UplinkState with its problems against the CRDs (none expected). */
const problemsOf = (document: Record<string, any>) =>
  [...document.uplinks, ...document.uplinkStates].flatMap((o: object) => validateObject(o));

type Stamped = { metadata: { name: string }; status: { conditions: { type: string; lastTransitionTime: string }[] } };
const times = (document: Record<string, any>) =>
  Object.fromEntries(
    [...document.uplinks, ...document.uplinkStates].map((o: Stamped) => [
      o.metadata.name,
      o.status.conditions.map((c) => `${c.type}@${c.lastTransitionTime}`),
    ]),
  );

afterAll(() => {
  spawnSync(process.execPath, [cli, 'destroy', '-f', fixture, '--lab', lab.name]);
});

describe("Uplinks and UplinkStates against upstream's CRDs", () => {
  it('plan offline emits objects the CRDs accept', () => {
    const planned = ovnk('plan', '-f', fixture);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.json.uplinks.length).toBeGreaterThan(0);
    expect(problemsOf(planned.json)).toEqual([]);
  });

  it('apply emits objects the CRDs accept, and a second apply keeps every lastTransitionTime and changes nothing', () => {
    const first = ovnk('apply', '-f', fixture, '--lab', lab.name);
    expect(first.code, first.stderr).toBe(0);
    expect(problemsOf(first.json)).toEqual([]);
    const second = ovnk('apply', '-f', fixture, '--lab', lab.name);
    expect(second.code, second.stderr).toBe(0);
    expect(problemsOf(second.json)).toEqual([]);
    expect(times(second.json)).toEqual(times(first.json));
    expect(second.json.zones.central.sent).toBe(false);
    expect(second.json.uplinkNodes.every((n: { change?: unknown }) => n.change === undefined)).toBe(true);
    const diff = ovnk('diff', '-f', fixture, '--lab', lab.name);
    expect(diff.code, diff.stderr).toBe(0);
    expect(problemsOf(diff.json)).toEqual([]);
    expect(times(diff.json)).toEqual(times(first.json));
  });
});
