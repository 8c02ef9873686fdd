/**
 * Which pinned CRD generates which file, and the upstream commit they came from (named in
 * ../shared/schemas/README.md); then the validators compiled from those schemas and ours. Pure:
 * the pinned texts come in, the files' texts go out. Shared by the generator entry
 * (provider/runtime/generate/crds.ts, which reads and writes) and the drift test, so both render
 * exactly the same thing. Nothing reads ../shared at run time.
 */
import { kindsFrom } from '../kinds';
import { readCrd, renderCrd, renderIndex } from './render';
import { renderSpecTypes } from './specTypes';
import { validatorFiles } from './validators';

/** A pinned CRD manifest: its file name in ../shared/schemas/crds/ and its text. */
export interface PinnedCrd {
  name: string;
  text: string;
}

export interface GeneratedCrdFile {
  /** Output path relative to the repository root. */
  output: string;
  /** The file's complete text, rendered from the pinned CRDs. */
  render(): string;
}

/** The commit the shared README names for the pinned CRDs. */
export function pinnedCommit(readme: string): string {
  const found = /crds\/`? at commit ([0-9a-f]{40})/.exec(readme);
  if (!found) throw new Error('crd: ../shared/schemas/README.md names no commit for crds/');
  return found[1]!;
}

/** Every generated file: the CRDs' schemas and their index, then the validators compiled from them. */
export function generatedCrdFiles(pinned: readonly PinnedCrd[], readme: string): GeneratedCrdFile[] {
  const sorted = [...pinned].sort((a, b) => (a.name < b.name ? -1 : 1));
  const commit = pinnedCommit(readme);
  const schemas = sorted.map(({ name, text }) => ({
    output: `provider/model/crd/generated/${readCrd(text).plural}.ts`,
    render: () => renderCrd(text, { commit, file: `../shared/schemas/crds/${name}` }),
  }));
  const texts = sorted.map((p) => p.text);
  const index = { output: 'provider/model/crd/generated/index.ts', render: () => renderIndex(texts, commit) };
  const specTypes = {
    output: 'provider/model/crd/generated/specTypes.ts',
    render: () => renderSpecTypes(texts, commit),
  };
  return [...schemas, index, specTypes, ...validatorFiles(kindsFrom(texts.map(readCrd)))];
}
