import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crdSourceCommit } from '../../../../provider/model/crd';
import { stripDescriptions } from '../../../../provider/model/crd/generate/render';
import { generatedCrdFiles, pinnedCommit } from '../../../../provider/model/crd/generate/sources';
import { findRepoRoot } from '../../../../provider/nb/generate/sources';
import { readPinned } from '../../../../provider/runtime/generate/crds';

const root = findRepoRoot(__dirname);
const { pinned, readme } = readPinned(root);

describe('the CRD generator', () => {
  for (const file of generatedCrdFiles(pinned, readme)) {
    it(`regenerating ${file.output} from the pinned CRDs gives the committed file`, () => {
      expect(file.render()).toBe(readFileSync(join(root, file.output), 'utf8'));
    });
  }

  it('embeds the upstream commit the shared README names, so nothing reads ../shared at run time', () => {
    expect(crdSourceCommit).toBe(pinnedCommit(readme));
    expect(crdSourceCommit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('drops descriptions but keeps a property named description', () => {
    expect(
      stripDescriptions({
        type: 'object',
        description: 'gone',
        properties: { description: { type: 'string', description: 'gone too' } },
        items: { type: 'string', description: 'x' },
      } as never),
    ).toEqual({ type: 'object', properties: { description: { type: 'string' } }, items: { type: 'string' } });
  });
});
