/**
 * ajv's errors -> problems that name the object, the field path, the value and the reason in the
 * API server's own words (`spec.connectivity: Required value`, `...: Too many: 3: must have at
 * most 2 items`, `... in body should be greater than or equal to 1`), so upstream's expected
 * errors are found in ours; an unknown field gets a "did you mean". Structural problems are
 * InvalidField: the object cannot be used at all.
 */
import type { ErrorObject } from 'ajv';
import { show } from '../fields';
import { type Problem, problem } from '../problem';
import { nameFormats } from './names';
import { closestName, formatPath, pointerSegments, type Segment } from './paths';

export interface StructuralProblem {
  problem: Problem;
  /**
   * Where a wrong type or a missing required field leaves the object unlike its schema: CEL rules
   * at this JSON pointer and above are not evaluated (they would read a value of the wrong type).
   * Unknown fields, enums, formats and limits leave the types intact (the API server prunes
   * unknown fields before CEL), so the rules still run.
   */
  blocks?: string;
}

/**
 * `schema` is the JSON schema the validator was compiled from: the generated validators keep
 * neither the data nor the schema node of an error, so both are looked up by their pointers.
 */
export function structuralProblems(
  errors: readonly ErrorObject[],
  root: unknown,
  schema: unknown,
  ref: string,
): StructuralProblem[] {
  return errors
    .filter((e) => e.keyword !== 'propertyNames' && e.keyword !== 'if')
    .map((raw) => {
      const at = pointerSegments(root, raw.instancePath);
      const parentSchema = resolve(schema, parentOf(raw), true) as ErrorObject['parentSchema'];
      const error = { ...raw, data: resolve(root, raw.instancePath), parentSchema };
      const { segments, message } = describe(error, at);
      const blocks = raw.keyword === 'type' || raw.keyword === 'required' ? raw.instancePath : undefined;
      return { problem: problem('InvalidField', ref, formatPath(segments), message), blocks };
    });
}

/** The schema node holding the failed keyword: its schemaPath without the keyword. */
function parentOf(error: ErrorObject): string {
  return error.schemaPath.replace(/^#/, '').replace(/\/[^/]*$/, '');
}

/** Follow a JSON pointer; ajv URI-encodes schema paths (a fragment) but not instance paths (a key `%` stays `%`). */
function resolve(root: unknown, pointer: string, fragment = false): unknown {
  let node = root;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const key = (fragment ? decodeURIComponent(raw) : raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

function describe(error: ErrorObject, at: Segment[]): { segments: Segment[]; message: string } {
  const field = formatPath(at) || '<root>';
  const p = error.params as Record<string, unknown>;
  const invalid = (detail: string) => `${field}: Invalid value: ${show(error.data)}: ${detail}`;
  switch (error.keyword) {
    case 'additionalProperties':
      return unknownField(error, at, String(p.additionalProperty));
    case 'required': {
      const missing = [...at, String(p.missingProperty)];
      return { segments: missing, message: `${formatPath(missing)}: Required value` };
    }
    case 'type':
      return { segments: at, message: invalid(`${field} in body must be of type ${String(p.type)}`) };
    case 'enum': {
      const values = (p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
      return { segments: at, message: `${field}: Unsupported value: ${show(error.data)}: supported values: ${values}` };
    }
    case 'format':
      return formatProblem(error, at, String(p.format));
    default:
      return {
        segments: at,
        message: limitText(error, field) ?? invalid(`${field} in body is not valid (${error.keyword})`),
      };
  }
}

function unknownField(error: ErrorObject, at: Segment[], name: string): { segments: Segment[]; message: string } {
  const segments = [...at, name];
  const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
  const suggestion = closestName(name, known);
  const hint = suggestion
    ? ` (did you mean ${JSON.stringify(suggestion)}?)`
    : known.length > 0 && known.length <= 12
      ? ` (known fields: ${known.join(', ')})`
      : '';
  return { segments, message: `${formatPath(segments)}: unknown field ${JSON.stringify(name)}${hint}` };
}

function formatProblem(error: ErrorObject, at: Segment[], format: string): { segments: Segment[]; message: string } {
  const why = nameFormats[format]?.message ?? `must be of format ${format}`;
  const key = (error as ErrorObject & { propertyName?: string }).propertyName;
  if (key !== undefined) {
    const segments = [...at, key];
    return { segments, message: `${formatPath(at)}: Invalid value: ${JSON.stringify(key)}: a key ${why}` };
  }
  return { segments: at, message: `${formatPath(at)}: Invalid value: ${show(error.data)}: ${why}` };
}

/** The API server's words for count, length, range and pattern limits. */
function limitText(error: ErrorObject, field: string): string | undefined {
  const p = error.params as { limit?: number; comparison?: string; pattern?: string };
  const data = error.data;
  const invalid = (detail: string) => `${field}: Invalid value: ${show(data)}: ${field} in body ${detail}`;
  switch (error.keyword) {
    case 'maxItems':
      return `${field}: Too many: ${(data as unknown[]).length}: must have at most ${p.limit} items`;
    case 'minItems':
      return `${field}: Invalid value: ${(data as unknown[]).length}: ${field} in body should have at least ${p.limit} items`;
    case 'maxLength':
      return `${field}: Too long: may not be more than ${p.limit} bytes`;
    case 'minLength':
      return invalid(`should be at least ${p.limit} chars long`);
    case 'maximum':
    case 'exclusiveMaximum':
      return invalid(`should be less than ${p.comparison === '<=' ? 'or equal to ' : ''}${p.limit}`);
    case 'minimum':
    case 'exclusiveMinimum':
      return invalid(`should be greater than ${p.comparison === '>=' ? 'or equal to ' : ''}${p.limit}`);
    case 'pattern':
      return invalid(`should match '${p.pattern}'`);
    case 'maxProperties':
    case 'minProperties':
      return invalid(`should have ${error.keyword === 'maxProperties' ? 'at most' : 'at least'} ${p.limit} properties`);
    default:
      return undefined;
  }
}
