import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentOf, ovnk } from '../../support/cli';
import { repoRoot } from '../../support/dist';

// The shipped files plan as the README shows them: each topology file in stacks/ plans offline,
// or the README shows its plan with --lab (test/lab/readme.test.ts runs those against a lab).
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const yamlIn = (dir: string) =>
  readdirSync(join(repoRoot, dir))
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => `${dir}/${name}`);
const shipped = [...yamlIn('stacks'), ...yamlIn('stacks/topologies')];
// Pulumi.<stack>.yaml are the stacks' configs (the README says they are not ovnk input).
const topologies = shipped.filter((file) => !/\/Pulumi\.[^/]+\.yaml$/.test(file));

describe('the shipped files', () => {
  it('the README says the Pulumi stack configs in stacks/ are not ovnk input', () => {
    expect(shipped.length).toBeGreaterThan(topologies.length);
    expect(readme).toContain('`stacks/Pulumi.<stack>.yaml` are Pulumi stack configs, not `ovnk`\ninput');
  });

  for (const file of topologies)
    it(`${file} plans offline, or the README shows its plan with --lab`, () => {
      const run = ovnk(['plan', '-f', file, '-o', 'json']);
      if (run.code === 0) expect(documentOf(run).ok).toBe(true);
      else expect(readme).toMatch(new RegExp(`^ovnk plan -f ${file.replace(/\./g, '\\.')} --lab\\b`, 'm'));
    });

  for (const file of shipped)
    it(`ovnk plan -f ${file} -o json prints one whole JSON document, whatever the outcome`, () => {
      const run = ovnk(['plan', '-f', file, '-o', 'json']);
      const document = documentOf(run);
      expect(document.ok).toBe(run.code === 0);
    });
});
