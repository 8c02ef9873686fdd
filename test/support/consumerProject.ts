/**
 * A consumer's Pulumi project, as a platform team has one: a temporary directory whose
 * node_modules links this checkout as `ovnk-pulumi` (its package.json exports, its dist/) beside
 * the checkout's @pulumi/pulumi and @pulumi/kubernetes (one SDK copy, as Pulumi requires), and
 * strict TypeScript that resolves packages as Node 16+ does (through `exports`). Linked, not
 * packed: packaging.test.ts proves the packed install; this stays fast.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';
import { repoRoot, requireFreshDist } from './dist';

export interface ConsumerProject {
  dir: string;
  /** Writes `text` as `name` in the project; returns its path. */
  write(name: string, text: string): string;
  /** The type errors of `files` under strict settings; emits them to `out/` when there are none. */
  typeErrors(files: string[]): string[];
  remove(): void;
}

export function consumerProject(prefix = 'ovnk-consumer-'): ConsumerProject {
  requireFreshDist();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'commonjs' }));
  mkdirSync(join(dir, 'node_modules', '@pulumi'), { recursive: true });
  symlinkSync(repoRoot, join(dir, 'node_modules', 'ovnk-pulumi'));
  for (const sdk of ['pulumi', 'kubernetes'])
    symlinkSync(join(repoRoot, 'node_modules', '@pulumi', sdk), join(dir, 'node_modules', '@pulumi', sdk));
  symlinkSync(join(repoRoot, 'node_modules', '@types'), join(dir, 'node_modules', '@types'));
  return {
    dir,
    write: (name, text) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
    typeErrors: (files) => {
      const compiled = ts.createProgram(files, {
        strict: true,
        noUncheckedIndexedAccess: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.Node16,
        moduleResolution: ts.ModuleResolutionKind.Node16,
        esModuleInterop: true,
        skipLibCheck: true,
        outDir: join(dir, 'out'),
      });
      const errors = ts
        .getPreEmitDiagnostics(compiled)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      if (errors.length === 0) compiled.emit();
      return errors;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
