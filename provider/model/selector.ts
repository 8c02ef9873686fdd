/**
 * Kubernetes label selectors (metav1.LabelSelector): matchLabels and matchExpressions with the
 * operators In, NotIn, Exists and DoesNotExist, all ANDed. An empty selector matches everything,
 * as in Kubernetes.
 */

export type Labels = Readonly<Record<string, string>>;

export type SelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

export const selectorOperators: readonly SelectorOperator[] = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

export interface SelectorRequirement {
  key: string;
  operator: SelectorOperator;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: SelectorRequirement[];
}

export function matchesSelector(selector: LabelSelector, labels: Labels): boolean {
  const wanted = selector.matchLabels ?? {};
  // no entries array per call: every connect tests every network, every plan
  for (const key in wanted) {
    if (Object.prototype.hasOwnProperty.call(wanted, key) && labels[key] !== wanted[key]) return false;
  }
  return (selector.matchExpressions ?? []).every((requirement) => matchesRequirement(requirement, labels));
}

function matchesRequirement(requirement: SelectorRequirement, labels: Labels): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, requirement.key);
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case 'In':
      return has && values.includes(labels[requirement.key]!);
    case 'NotIn':
      return !has || !values.includes(labels[requirement.key]!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
  }
}

/**
 * The rules the apiserver applies to a selector: In/NotIn need values, Exists/DoesNotExist
 * must have none. Returns one message per broken requirement, with its index.
 */
export function selectorShapeErrors(selector: LabelSelector): { index: number; message: string }[] {
  const errors: { index: number; message: string }[] = [];
  (selector.matchExpressions ?? []).forEach((requirement, index) => {
    const count = requirement.values?.length ?? 0;
    const needsValues = requirement.operator === 'In' || requirement.operator === 'NotIn';
    if (needsValues && count === 0)
      errors.push({ index, message: `operator ${requirement.operator} needs at least one value` });
    if (!needsValues && count > 0) errors.push({ index, message: `operator ${requirement.operator} takes no values` });
  });
  return errors;
}
