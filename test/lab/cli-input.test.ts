import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import '../setup/lab';
import { documentOf, ovnk } from '../support/cli';
import { repoRoot } from '../support/dist';
import { cudn, inventory, layer3, yamlOf } from '../support/objects';

// `-f -` through every step that reads the input: the command, its Uplink section and the target
// (standard input can be read only once, so each must get the same documents).
const lab = inject('lab');
const topology = yamlOf(
  inventory('t-cli-stdin', { namespaces: [{ name: 'stdin-ns', labels: { network: 'stdin' } }] }),
  cudn('stdin', layer3('10.77.0.0/16', 24), { namespaceSelector: { matchLabels: { network: 'stdin' } } }),
);

describe('ovnk -f - against the lab', () => {
  it('plan --lab of a file with Uplinks reads standard input once and plans what the file plans', () => {
    const fixture = join(repoRoot, 'test', 'fixtures', 'uplink-lab.yaml');
    const fromFile = documentOf(ovnk(['plan', '-f', fixture, '--lab', lab.name, '-o', 'json']));
    const piped = ovnk(['plan', '-f', '-', '--lab', lab.name, '-o', 'json'], {
      input: readFileSync(fixture, 'utf8'),
    });
    expect(piped.code, piped.stderr).toBe(0);
    // a plan with no stored state stamps its conditions' lastTransitionTime with the time it runs
    const timeless = (text: string) => text.replace(/"lastTransitionTime":"[^"]*"/g, '"lastTransitionTime":"t"');
    expect(timeless(JSON.stringify(documentOf(piped)))).toEqual(timeless(JSON.stringify(fromFile)));
    expect(fromFile.uplinkStates.length).toBeGreaterThan(0);
  });

  it('apply, diff and destroy take the topology on standard input', () => {
    const args = ['-f', '-', '--lab', lab.name, '-o', 'json'];
    const applied = ovnk(['apply', ...args], { input: topology });
    expect(applied.code, applied.stdout).toBe(0);
    expect(documentOf(applied)).toMatchObject({ ok: true, owner: 't-cli-stdin' });
    const diffed = ovnk(['diff', ...args], { input: topology });
    expect(diffed.code, diffed.stdout).toBe(0);
    expect(documentOf(diffed).drift).toBe(false);
    const destroyed = ovnk(['destroy', ...args], { input: topology });
    expect(destroyed.code, destroyed.stdout).toBe(0);
    const after = ovnk(['diff', ...args], { input: topology });
    expect(after.code).toBe(2);
  });
});
