/**
 * validateObject: one object (a parsed YAML/JSON document, or an object the project is about to
 * send to a Kubernetes API) against its kind's schema: upstream's CRD for k8s.ovn.org kinds, ours
 * for Inventory. Structure first (ajv: types, enums, formats, limits, unknown fields refused with
 * a "did you mean"), then the CEL rules, with transition rules when `old` is given. Every problem
 * at once; an unknown kind or apiVersion names the known ones. Pure; compiled validators and
 * rules are cached.
 */
import { type Problem, problem } from '../problem';
import { structuralProblems } from './errors';
import { ajvSchemaOf, findKind, knownKinds, validatorOf } from './kinds';
import { closestName } from './paths';
import { failedRules, ruleProblems } from './rules';
import { withoutNulls } from './structural';

export interface ValidateOptions {
  /** The object as it was (an update): transition rules such as `self == oldSelf` are evaluated against it. */
  old?: unknown;
  /** The object part of problem paths; default `<Kind>/<name>` or `<Kind>/<namespace>/<name>`. */
  ref?: string;
}

type Body = Record<string, unknown>;

export function validateObject(object: unknown, options: ValidateOptions = {}): Problem[] {
  let body = (typeof object === 'object' && object !== null && !Array.isArray(object) ? object : {}) as Body;
  const ref = options.ref ?? refOf(body);
  const apiVersion = String(body.apiVersion ?? '');
  const kind = String(body.kind ?? '');
  const known = findKind(apiVersion, kind);
  if (!known) return [unknownKind(ref, apiVersion, kind)];
  const validate = validatorOf(known);
  body = withoutNulls(body, known.schema) as Body;
  if (validate(body)) return ruleProblems(known.schema, body, options.old, ref, []);
  const structural = structuralProblems(validate.errors ?? [], body, ajvSchemaOf(known), ref);
  const broken = structural.flatMap((s) => (s.blocks === undefined ? [] : [s.blocks]));
  return [...structural.map((s) => s.problem), ...ruleProblems(known.schema, body, options.old, ref, broken)];
}

/**
 * The CEL rules (their text) an update from `old` to `object` breaks: which transition rules
 * refuse it, read from the rules themselves rather than from problem messages. Structure is not
 * checked here (validateObject does).
 */
export function brokenRules(object: unknown, old: unknown): string[] {
  const body = (typeof object === 'object' && object !== null && !Array.isArray(object) ? object : {}) as Body;
  const known = findKind(String(body.apiVersion ?? ''), String(body.kind ?? ''));
  return known ? failedRules(known.schema, withoutNulls(body, known.schema), old) : [];
}

export function refOf(body: Body): string {
  const meta = (body.metadata ?? {}) as Body;
  const parts = [body.kind, meta.namespace, meta.name].filter((p) => typeof p === 'string' && p !== '');
  return parts.join('/') || 'object';
}

function unknownKind(ref: string, apiVersion: string, kind: string): Problem {
  const list = knownKinds.map((k) => `${k.kind} (${k.apiVersion})`).join(', ');
  const sameKind = knownKinds.filter((k) => k.kind === kind);
  if (sameKind.length > 0)
    return problem(
      'InvalidField',
      ref,
      'apiVersion',
      `apiVersion ${JSON.stringify(apiVersion)} of ${kind} is not served: use ${sameKind.map((k) => k.apiVersion).join(' or ')}`,
    );
  const meant = closestName(kind, [...new Set(knownKinds.map((k) => k.kind))]);
  const hint = meant ? ` (did you mean ${JSON.stringify(meant)}?)` : '';
  return problem('UnknownKind', ref, 'kind', `kind ${JSON.stringify(kind)} is not one of ${list}${hint}`);
}
