/**
 * Upstream's own API validation scenarios (test/e2e/testscenario/{cudn,clusternetworkconnect}/*.go
 * of ovn-kubernetes, kept as data in test/fixtures/crd-upstream/, one file per upstream file): each
 * manifest is applied as `kubectl apply -f -` does, a second document of the same object being an
 * update of the first; the invalid ones must be refused with upstream's expected error text among
 * ours, the valid ones accepted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { validateObject } from '../../../../provider/model/crd';
import { refOf } from '../../../../provider/model/crd/validate';

interface Scenario {
  description: string;
  expectedErr?: string;
  manifest: string;
}

const dir = join(__dirname, '../../../fixtures/crd-upstream');

/** What kubectl prints for each refused document of the manifest, applied in order. */
function apply(manifest: string): string[] {
  const live = new Map<string, unknown>();
  return parseAllDocuments(manifest).flatMap((doc) => {
    const object = doc.toJS() as { kind: string; metadata: { name: string } };
    const ref = refOf(object);
    const messages = validateObject(object, { old: live.get(ref) }).map((p) => p.message);
    if (messages.length === 0) live.set(ref, object);
    const all = messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
    return messages.length === 0 ? [] : [`The ${object.kind} "${object.metadata.name}" is invalid: ${all}`];
  });
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
  const scenarios = parse(readFileSync(join(dir, file), 'utf8')) as Scenario[];
  describe(`upstream's ${file.replace('.yaml', '.go')}`, () => {
    it.each(scenarios.map((s) => [s.description, s] as const))('%s', (_name, scenario) => {
      const messages = apply(scenario.manifest);
      if (scenario.expectedErr === undefined) expect(messages).toEqual([]);
      else expect(messages).toContainEqual(expect.stringContaining(scenario.expectedErr));
    });
  });
}
