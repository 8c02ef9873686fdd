/**
 * Issue 26 point 3: Uplink names as upstream takes them. The Uplink CRD adds no name rule of its
 * own, so the API server's DNS-1123 subdomain check (up to 253, dots allowed) is all there is;
 * a CUDN's `spec.uplinks` item is `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`, maxLength 253
 * (k8s.ovn.org_clusteruserdefinednetworks.yaml), so a dotted Uplink exists but no CUDN can name
 * it. What is derived from the name still fits: the UplinkState name is hashed past 253
 * (pkg/uplink/names.go StateName), and bridge mappings are named after the CUDN, not the Uplink.
 */
import { describe, expect, it } from 'vitest';
import { buildCluster } from '../../../provider/model/cluster';
import { loadDocuments } from '../../../provider/model/load';
import { hashForOvn, planUplinks } from '../../../provider/uplink';
import { cudn, inventory, layer3, ovsBridgeConfig, uplink, yamlOf } from '../../support/objects';

/** The file's problems (CRD schemas, then the model), and the Uplink plan when there are none. */
function planOf(uplinkName: string, uplinks = [uplinkName]) {
  const loaded = loadDocuments(
    yamlOf(
      inventory('inv', { ipFamilies: ['IPv4'], nodes: [{ name: 'n1' }] }),
      uplink(uplinkName, [ovsBridgeConfig('blue0')]),
      cudn('tenant', layer3('10.1.0.0/16'), { uplinks }),
    ),
  );
  if (loaded.problems.length > 0) return { problems: loaded.problems.map((p) => p.path) };
  const built = buildCluster(loaded.documents);
  if (built.problems.length > 0) return { problems: built.problems.map((p) => p.path) };
  return { problems: [], plan: planUplinks({ cluster: built.cluster, owner: 'o' }) };
}

const long = (length: number, unit = 'u') => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

describe('Uplink names', () => {
  it('takes a dot-free name of 253 characters, on the Uplink and in the CUDN, hashing its UplinkState name', () => {
    const name = long(253);
    const { problems, plan } = planOf(name);
    expect(problems).toEqual([]);
    expect(plan!.problems).toEqual([]);
    expect(plan!.uplinkStates.map((s) => s.metadata.name)).toEqual([`uplinkstate-${hashForOvn(`${name}.n1`)}`]);
    expect(plan!.networks.cluster_udn_tenant!.uplinks).toEqual([name]);
  });

  it('takes a dotted DNS subdomain as an Uplink name (upstream adds no rule), which no CUDN can name', () => {
    const dotted = `${long(120, 'blue.')}x`;
    expect(planOf(dotted, ['other']).problems).toEqual([]);
    expect(planOf(dotted).problems).toEqual(['ClusterUserDefinedNetwork/tenant: spec.uplinks[0]']);
  });

  it('refuses past 253 characters, on the Uplink and in the CUDN, as the API server would', () => {
    const name = long(254);
    expect(planOf(name, ['blue']).problems).toEqual(['Uplink/' + name + ': metadata.name']);
    expect(planOf('blue', [name]).problems).toEqual(['ClusterUserDefinedNetwork/tenant: spec.uplinks[0]']);
  });
});
