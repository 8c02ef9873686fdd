import { describe, expect, it } from 'vitest';
import { validateObject } from '../../../../provider/model/crd';
import { evaluateCel } from '../../../../provider/model/crd/cel';
import { ruleProblems } from '../../../../provider/model/crd/rules';
import type { StructuralSchema } from '../../../../provider/model/crd/types';

const messages = (object: unknown, old?: unknown) => validateObject(object, { old }).map((p) => p.message);

describe('RouteAdvertisements and UplinkState against their CRDs', () => {
  const ra = (spec: object) => ({
    apiVersion: 'k8s.ovn.org/v1',
    kind: 'RouteAdvertisements',
    metadata: { name: 'blue' },
    spec: {
      advertisements: ['PodNetwork'],
      networkSelectors: [{ networkSelectionType: 'DefaultNetwork' }],
      nodeSelector: {},
      frrConfigurationSelector: {},
      ...spec,
    },
  });

  it('accepts a RouteAdvertisements of the pod network on every node', () => {
    expect(messages(ra({}))).toEqual([]);
  });

  it("refuses PodNetwork with a nodeSelector, in the CRD's words", () => {
    expect(messages(ra({ nodeSelector: { matchLabels: { a: 'b' } } }))).toContainEqual(
      expect.stringContaining(
        "If 'PodNetwork' is selected for advertisement, a 'nodeSelector' can't be specified as it needs to be advertised on all nodes",
      ),
    );
  });

  const state = (uplinkName: string) => ({
    apiVersion: 'k8s.ovn.org/v1alpha1',
    kind: 'UplinkState',
    metadata: { name: 'blue.ovn-worker' },
    spec: { uplinkName, nodeName: 'ovn-worker' },
  });

  it('accepts an UplinkState and refuses changing its uplinkName on update', () => {
    expect(messages(state('blue'))).toEqual([]);
    expect(messages(state('red'), state('blue'))).toEqual([
      'spec.uplinkName: Invalid value: "red": uplinkName is immutable',
    ]);
  });
});

describe('CEL rules as the API server evaluates them', () => {
  const schema = (rule: object, extra: Partial<StructuralSchema> = {}): StructuralSchema => ({
    type: 'object',
    properties: { a: { type: 'integer' }, list: { type: 'array', items: { type: 'string' } } },
    'x-kubernetes-validations': [rule as never],
    ...extra,
  });
  const run = (s: StructuralSchema, value: unknown, old?: unknown) =>
    ruleProblems(s, value, old, 'X/x', []).map((p) => [p.path, p.message]);

  it('uses messageExpression over message, and fieldPath for the path', () => {
    const rule = {
      rule: 'self.a < 3',
      message: 'plain',
      messageExpression: "'a is ' + string(self.a)",
      fieldPath: '.a',
    };
    expect(run(schema(rule), { a: 5 })).toEqual([['X/x: a', 'a: Invalid value: a is 5 (value {"a":5})']]);
  });

  it("words the rule's reason as the API server does", () => {
    const rule = { rule: 'has(self.list)', message: 'list is needed', reason: 'FieldValueRequired' };
    expect(run(schema(rule), { a: 1 })).toEqual([['X/x', '<root>: Required value: list is needed (value {"a":1})']]);
  });

  it('sees integers as CEL ints, so integer arithmetic in rules works', () => {
    expect(run(schema({ rule: '32 - self.a == 8', message: 'm' }), { a: 24 })).toEqual([]);
  });

  it('skips a transition rule without an old object and evaluates it with one', () => {
    const rule = { rule: 'self.a == oldSelf.a', message: 'a is immutable' };
    expect(run(schema(rule), { a: 1 })).toEqual([]);
    expect(run(schema(rule), { a: 1 }, { a: 2 })).toHaveLength(1);
  });

  it('reports a rule that cannot be evaluated instead of passing it', () => {
    expect(run(schema({ rule: 'self.a.startsWith("x")', message: 'm' }), { a: 1 })[0]![1]).toMatch(
      /could not be evaluated/,
    );
  });
});

describe("Kubernetes' CEL IP and CIDR library", () => {
  it.each([
    ["isIP('10.0.0.1') && isIP('fd00::1')", true],
    ["isIP('010.0.0.1')", false],
    ["isIP('fe80::1%eth0')", false],
    ["isIP('::ffff:10.0.0.1')", false],
    ["isCIDR('10.0.0.1/8') && !isCIDR('10.0.0.0/33') && !isCIDR('10.0.0.0')", true],
    ["cidr('10.0.0.1/8') == cidr('10.0.0.1/8').masked()", false],
    ["cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && cidr('10.0.0.0/8').containsIP('10.9.9.9')", true],
    ["cidr('fd00::/64').ip().family() == 6 && cidr('10.0.0.0/8').prefixLength() == 8", true],
    ["'65000:100'.split(':').size() == 2", true],
  ])('%s is %s', (expression, expected) => {
    expect(evaluateCel(expression, { self: null })).toEqual({ ok: true, value: expected });
  });
});
