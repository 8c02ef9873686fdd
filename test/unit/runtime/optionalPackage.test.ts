import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MissingPackageError, requireOptional } from '../../../provider/runtime/optionalPackage';

const dir = mkdtempSync(join(tmpdir(), 'ovnk-optional-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('requireOptional', () => {
  it('returns the package when it is installed', () => {
    expect(requireOptional<typeof import('yaml')>('yaml', 'a test').stringify({ a: 1 })).toBe('a: 1\n');
  });

  it('names the package, what needs it and the install command when the package is not installed', () => {
    const load = () => requireOptional('ovnk-no-such-package', 'ovnk something');
    expect(load).toThrow(MissingPackageError);
    expect(load).toThrow(
      'ovnk something needs the package ovnk-no-such-package, which is not installed: npm install ovnk-no-such-package',
    );
  });

  it('passes on the error of an installed package that lacks one of its own dependencies', () => {
    const file = join(dir, 'broken.js');
    writeFileSync(file, "require('ovnk-no-such-dependency');\n");
    const load = () => requireOptional(file, 'ovnk something');
    expect(load).toThrow(/Cannot find module 'ovnk-no-such-dependency'/);
    expect(load).not.toThrow(MissingPackageError);
  });
});
