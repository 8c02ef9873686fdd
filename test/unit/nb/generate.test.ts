import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { camelCase, columnTsType } from '../../../provider/nb/generate/render';
import { findRepoRoot, generatedFiles } from '../../../provider/nb/generate/sources';
import { nbSchema } from '../../../provider/nb/generated/nb';
import { vswitchSchema } from '../../../provider/nb/generated/vswitch';
import { enumValues } from '../../../provider/nb/values';

const root = findRepoRoot(__dirname);

describe('the row-type generator', () => {
  for (const file of generatedFiles(root)) {
    it(`regenerating ${file.output} from the pinned schema gives the committed file`, () => {
      const schema = JSON.parse(readFileSync(file.schemaPath, 'utf8'));
      expect(file.render(schema)).toBe(readFileSync(join(root, file.output), 'utf8'));
    });
  }

  it('embeds the schema metadata so nothing reads ../shared at run time', () => {
    expect(nbSchema.version).toBe('7.18.0');
    expect(nbSchema.tables.Logical_Router.isRoot).toBe(true);
    expect(nbSchema.tables.Logical_Router_Port.indexes).toEqual([['name']]);
    expect(vswitchSchema.name).toBe('Open_vSwitch');
  });

  it('names tables in CamelCase', () => {
    expect(camelCase('Logical_Router_Static_Route')).toBe('LogicalRouterStaticRoute');
    expect(camelCase('ACL')).toBe('ACL');
  });

  it('maps each column shape to its TypeScript type', () => {
    expect(columnTsType('string')).toBe('string');
    expect(columnTsType({ key: 'string', min: 0, max: 1 })).toBe('string | undefined');
    expect(columnTsType({ key: 'integer', min: 0, max: 'unlimited' })).toBe('number[]');
    expect(columnTsType({ key: 'string', value: 'string', min: 0, max: 'unlimited' })).toBe('Record<string, string>');
    expect(columnTsType({ key: { type: 'uuid', refTable: 'ACL' }, min: 0, max: 'unlimited' })).toBe('Uuid[]');
    expect(columnTsType({ key: { type: 'string', enum: ['set', ['drop', 'allow']] } })).toBe('"allow" | "drop"');
    expect(columnTsType({ key: { type: 'string', enum: ['set', ['a', 'b']] }, min: 0, max: 2 })).toBe('("a" | "b")[]');
  });

  it('reads a single enum value written as a bare atom', () => {
    expect(enumValues({ type: 'string', enum: 'inline' })).toEqual(['inline']);
    expect(enumValues('string')).toBeUndefined();
  });
});
