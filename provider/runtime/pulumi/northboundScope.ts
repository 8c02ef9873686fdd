/**
 * A Cluster's own Northbound for every method of its resources: a resource whose `northbound`
 * input names endpoints or a stack-config namespace (ClusterArgs.northbound) runs with those
 * settings (settings.ts `withNorthbound`), so one program manages two deployments; without one,
 * the stack's `ovnk:` config serves. Check refuses an unusable `northbound`, naming the property.
 */
import { checkFailure, containsUnknown, type ResourceKind } from './protocol';
import { northboundProblems, withNorthbound } from './settings';

export function scopedKind(kind: ResourceKind): ResourceKind {
  return {
    configure: (request) => kind.configure(request),
    check: async (olds, news) => {
      const problems = containsUnknown(news.northbound) ? [] : northboundProblems(news.northbound);
      if (problems.length > 0)
        return { inputs: news, failures: problems.map((p) => checkFailure(p.property, 'InvalidField', p.message)) };
      const checked = await withNorthbound(news, () => kind.check(olds, news));
      // the kinds that rebuild their inputs keep the resource's Northbound
      const keep = news.northbound !== undefined && checked.inputs && checked.inputs.northbound === undefined;
      return keep ? { ...checked, inputs: { ...checked.inputs, northbound: news.northbound } } : checked;
    },
    diff: (id, olds, news) => kind.diff(id, olds, news),
    create: (inputs) => withNorthbound(inputs, () => kind.create(inputs)),
    read: (id, props) => withNorthbound(props, () => kind.read(id, props)),
    update: (id, olds, news) => withNorthbound(news, () => kind.update(id, olds, news)),
    delete: (id, props) => withNorthbound(props, () => kind.delete(id, props)),
  };
}
