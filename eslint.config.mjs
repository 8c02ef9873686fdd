// ESLint: the recommended JavaScript and typescript-eslint rules (syntax only, no type information,
// so it stays fast), with the house's habits: `_`-prefixed names are deliberately unused, types are
// imported with `import type` so the layer checks (.dependency-cruiser.cjs) can tell a type import
// from a value import, and `typeof import('...')` types the modules a test loads late. Imports stand
// in one order (node's, packages, then ours from the farthest folder in), alphabetical within each,
// so a file's dependencies read at a glance and two branches adding an import merge cleanly.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'test/pulumi/fixtures/'] },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'],
          'newlines-between': 'never',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // Prettier wraps code at 120 but never comments; long strings and templates are messages, kept
      // whole, and so are the indented code lines of a doc comment's @example (` *   code`).
      'max-len': [
        'error',
        {
          code: 120,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreUrls: true,
          ignoreRegExpLiterals: true,
          ignorePattern: '^\\s*\\*\\s{2,}\\S',
        },
      ],
    },
  },
  {
    // Generated code (nb and CRD types) is what its generator prints.
    files: ['**/generated/**/*.ts'],
    rules: { 'max-len': 'off', 'import-x/order': 'off' },
  },
  {
    // Tests read the CLI's JSON documents and rows' columns field by field; `expect` is their check.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
