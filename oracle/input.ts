/**
 * The harness input of one zone (oracle/harness/ovnk_oracle_test.go reads it): our plan's cluster
 * as the Kubernetes objects upstream's zone controllers watch, carrying the annotations the cluster
 * manager and ovnkube-node write (node ids, host subnets, gateway config, network ids and tunnel
 * keys, connect subnets, Layer2 pods' addresses) with the values our plan allocated. The CUDN and
 * UDN objects go as they are: the harness renders their NADs with upstream's own template.
 */
import type { LoadedDocument } from '../provider/model/load';
import {
  advertisesCudnPodNetwork,
  isActiveOn,
  legacyGatewayTunnelId,
  predictedAnnotations,
  type TopologyPlan,
} from '../provider/runtime/cli';

type Json = Record<string, unknown>;

export interface HarnessSettings {
  gatewayMode: string;
  ipv4: boolean;
  ipv6: boolean;
  clusterSubnets: string;
  serviceCIDRs: string[];
  masqueradeSubnets: string[];
  ephemeralPortRange: string;
  mtu: number;
  features: Record<string, boolean>;
  quietMillis: number;
  timeoutMillis: number;
  /** false: the zone's node is not yet on the Layer2 transit router (its layer2TopologyVersion "1.0"). */
  layer2UsesTransitRouter?: boolean;
}

export interface HarnessInput {
  /** `clustermanager`: upstream's cluster manager instead of the zone's controllers (clusterManager.ts). */
  mode?: string;
  zone: string;
  settings: HarnessSettings;
  nodes: Json[];
  namespaces: Json[];
  pods: Json[];
  services: Json[];
  endpointSlices: Json[];
  networks: {
    kind: string;
    object: Json;
    nads: { namespace: string; annotations: Record<string, string> }[];
    podNetworkAdvertisedVRFs?: Record<string, string[]>;
  }[];
  connects: Json[];
  uplinks: Json[];
  uplinkStates: Json[];
}

/** The settings the dumps record (what changes upstream's rows beside the objects). */
export function harnessSettings(plan: TopologyPlan): HarnessSettings {
  const inv = plan.cluster.inventory;
  const hostLength = (cidr: string) => (cidr.includes(':') ? 64 : 24);
  const transports = new Set(plan.cluster.networks.map((n) => n.transport));
  return {
    gatewayMode: inv.gatewayMode,
    ipv4: inv.ipFamilies.includes(4),
    ipv6: inv.ipFamilies.includes(6),
    clusterSubnets: inv.clusterSubnets.map((c) => `${c}/${hostLength(c)}`).join(','),
    serviceCIDRs: inv.serviceCIDRs,
    masqueradeSubnets: inv.masqueradeSubnets,
    ephemeralPortRange: inv.ephemeralPortRange,
    mtu: inv.mtu,
    features: {
      ...((plan.cluster.uplinks ?? []).length > 0 ? { EnableUplink: true } : {}),
      ...((plan.cluster.routeAdvertisements ?? []).length > 0 || transports.has('EVPN')
        ? { EnableRouteAdvertisements: true }
        : {}),
      ...(transports.has('EVPN') ? { EnableEVPN: true } : {}),
      // the Inventory narrows where networks are active (model/active.ts): upstream's Dynamic UDN
      ...(inv.nodes.some((n) => n.networks !== undefined) ? { EnableDynamicUDNAllocation: true } : {}),
      ...(inv.enablePreconfiguredUDNAddresses ? { EnablePreconfiguredUDNAddresses: true } : {}),
    },
    quietMillis: 3000,
    timeoutMillis: 30000,
  };
}

const goJsonList = (values: string[]) => JSON.stringify(values);

/**
 * While any node is on the old Layer2 topology, upstream's cluster manager keeps every node's
 * gateway port key per primary Layer2 network in k8s.ovn.org/udn-layer2-node-gateway-router-lrp-tunnel-ids.
 */
function legacyTunnelIds(plan: TopologyPlan, node: TopologyPlan['cluster']['inventory']['nodes'][number]): Json {
  const inv = plan.cluster.inventory;
  if (!inv.nodes.some((n) => n.layer2TopologyVersion === '1.0')) return {};
  const id = plan.allocation.nodeIds[node.name]!;
  const networks = plan.cluster.networks.filter((n) => n.topology === 'Layer2' && n.role === 'Primary');
  const ids = Object.fromEntries(networks.map((n) => [n.name, String(legacyGatewayTunnelId({ ...node, id }, n.name))]));
  return { 'k8s.ovn.org/udn-layer2-node-gateway-router-lrp-tunnel-ids': JSON.stringify(ids) };
}

function nodeObject(plan: TopologyPlan, name: string): Json {
  const inv = plan.cluster.inventory;
  const node = inv.nodes.find((n) => n.name === name)!;
  const predicted = predictedAnnotations(plan.allocation).nodes[name] ?? {};
  const id = plan.allocation.nodeIds[name]!;
  const v4 = node.nodeIPs.find((ip) => !ip.includes(':'));
  const v6 = node.nodeIPs.find((ip) => ip.includes(':'));
  const bridge = node.gatewayBridge ?? 'breth0';
  const annotations: Record<string, string> = {
    ...predicted,
    'k8s.ovn.org/node-chassis-id': node.chassisId ?? '',
    'k8s.ovn.org/zone-name': name,
    ...(node.layer2TopologyVersion === '1.0' ? {} : { 'k8s.ovn.org/layer2-topology-version': '2.0' }),
    ...legacyTunnelIds(plan, node),
    'k8s.ovn.org/node-primary-ifaddr': JSON.stringify({ ...(v4 ? { ipv4: v4 } : {}), ...(v6 ? { ipv6: v6 } : {}) }),
    'k8s.ovn.org/host-cidrs': goJsonList(node.nodeIPs),
    'k8s.ovn.org/node-transit-switch-port-ifaddr': JSON.stringify(transitAddresses(plan, id, node.transitSwitchIPs)),
  };
  if (node.gatewayMac && node.nodeIPs.length > 0)
    annotations['k8s.ovn.org/l3-gateway-config'] = JSON.stringify({
      default: {
        mode: inv.gatewayMode,
        'bridge-id': bridge,
        'interface-id': `${bridge}_${name}`,
        'mac-address': node.gatewayMac,
        'ip-addresses': node.nodeIPs,
        'ip-address': node.nodeIPs[0],
        'next-hops': node.gatewayNextHops,
        'next-hop': node.gatewayNextHops[0] ?? '',
        'node-port-enable': 'true',
        'vlan-id': '0',
      },
    });
  if (node.gatewayMtuSupport === false) annotations['k8s.ovn.org/gateway-mtu-support'] = 'false';
  return {
    metadata: { name, labels: { ...node.labels, 'kubernetes.io/hostname': name }, annotations },
    status: {
      conditions: [{ type: 'Ready', status: 'True' }],
      addresses: node.nodeIPs.map((ip) => ({ type: 'InternalIP', address: ip.split('/')[0] })),
    },
  };
}

/** The node's Layer3 transit-switch addresses: its pin, else 100.88.0.0/16 and fd97::/64 plus the id. */
function transitAddresses(plan: TopologyPlan, id: number, pinned?: string[]): Json {
  if (pinned && pinned.length > 0) {
    const v4 = pinned.find((ip) => !ip.includes(':'));
    const v6 = pinned.find((ip) => ip.includes(':'));
    return { ...(v4 ? { ipv4: v4 } : {}), ...(v6 ? { ipv6: v6 } : {}) };
  }
  const families = plan.cluster.inventory.ipFamilies;
  return {
    ...(families.includes(4) ? { ipv4: `100.88.${id >> 8}.${id & 255}/16` } : {}),
    ...(families.includes(6) ? { ipv6: `fd97::${id.toString(16)}/64` } : {}),
  };
}

function namespaceObjects(plan: TopologyPlan): Json[] {
  const primary = new Set(plan.cluster.networks.filter((n) => n.role === 'Primary').flatMap((n) => n.namespaces));
  return plan.cluster.inventory.namespaces.map((ns) => ({
    metadata: {
      name: ns.name,
      labels: {
        ...ns.labels,
        'kubernetes.io/metadata.name': ns.name,
        ...(primary.has(ns.name) ? { 'k8s.ovn.org/primary-user-defined-network': '' } : {}),
      },
    },
  }));
}

/**
 * A pod's networks as the cluster manager leaves them: a primary Layer2 network's, and each
 * secondary Layer2 or Localnet network's the pod names, carry the addresses, MAC and tunnel id
 * the cluster manager annotates (base_network_controller_pods.go allocatesPodAnnotation: the zone
 * controller allocates only Layer3's); the secondary ones are also named in
 * `k8s.v1.cni.cncf.io/networks`, as the pod's author writes them.
 */
function podObjects(plan: TopologyPlan): Json[] {
  const plugs = plan.zones.flatMap((z) => z.pods);
  return plan.cluster.inventory.pods.map((pod) => {
    const key = `${pod.namespace}/${pod.name}`;
    const networks: Json = {};
    const joined = plan.cluster.networks.flatMap((network) => {
      if (network.role === 'Primary')
        return network.namespaces.includes(pod.namespace)
          ? [{ network, nadKey: `${pod.namespace}/${network.objectName}` }]
          : [];
      return (pod.networks ?? [])
        .map((ref) => (ref.includes('/') ? ref : `${pod.namespace}/${ref}`))
        .filter((nadKey) => {
          const [namespace, name] = nadKey.split('/') as [string, string];
          return (
            network.objectName === name &&
            network.namespaces.includes(namespace) &&
            (network.kind === 'ClusterUserDefinedNetwork' || network.namespace === namespace)
          );
        })
        .map((nadKey) => ({ network, nadKey }));
    });
    for (const { network, nadKey } of joined) {
      if (network.topology === 'Layer3') continue;
      const ips = plan.state.pods[network.name]?.[key];
      if (!ips) continue;
      const plug = plugs.find((p) => p.network === network.name && `${p.namespace}/${p.name}` === key);
      networks[nadKey] = {
        ip_addresses: plug?.addresses ?? ips,
        mac_address: plug?.mac,
        gateway_ips: plug?.gateways ?? [],
        ip_address: (plug?.addresses ?? ips)[0],
        gateway_ip: plug?.gateways[0] ?? '',
        tunnel_id: plan.state.podTunnels?.[network.name]?.[key],
        role: network.role.toLowerCase(),
      };
    }
    const selections = joined
      .filter((j) => j.network.role !== 'Primary')
      .map((j) => ({ namespace: j.nadKey.split('/')[0], name: j.nadKey.split('/')[1] }));
    const annotations: Record<string, string> = {
      ...(Object.keys(networks).length > 0 ? { 'k8s.ovn.org/pod-networks': JSON.stringify(networks) } : {}),
      ...(selections.length > 0 ? { 'k8s.v1.cni.cncf.io/networks': JSON.stringify(selections) } : {}),
    };
    return {
      metadata: { name: pod.name, namespace: pod.namespace, ...(pod.uid ? { uid: pod.uid } : {}), annotations },
      spec: { nodeName: pod.node, containers: [{ name: 'c', image: 'i' }] },
      status: { phase: 'Running' },
    };
  });
}

/**
 * The networks whose controllers the zone runs: with Dynamic UDN, upstream's network manager
 * starts a network's controller only on the nodes it is active on (networkmanager/
 * nad_controller.go NodeHasNetwork), so a network inactive on the zone's node is left out.
 */
function networkObjects(plan: TopologyPlan, documents: LoadedDocument[], zone: string): HarnessInput['networks'] {
  const annotations = predictedAnnotations(plan.allocation).networks;
  const node = plan.cluster.inventory.nodes.find((n) => n.name === zone);
  return plan.cluster.networks
    .filter((n) => annotations[n.name] !== undefined && (!node || isActiveOn(node, n)))
    .map((network) => {
      const doc = documents.find(
        (d) =>
          d.kind === network.kind &&
          d.metadata.name === network.objectName &&
          (network.kind === 'ClusterUserDefinedNetwork' || d.metadata.namespace === network.namespace),
      )!;
      const nadAnnotations = { ...annotations[network.name]! };
      delete nadAnnotations['k8s.ovn.org/network-name'];
      const vrfs = advertisedVRFs(plan, network);
      return {
        kind: network.kind,
        object: doc.body,
        nads: network.namespaces.map((namespace) => ({ namespace, annotations: nadAnnotations })),
        ...(Object.keys(vrfs).length > 0 ? { podNetworkAdvertisedVRFs: vrfs } : {}),
      };
    });
}

/**
 * By node, the VRFs a CUDN's pod network is advertised in: what upstream's network manager derives
 * from the accepted RouteAdvertisements that select it (networkmanager/network_controller.go:
 * targetVRF, else "default", for each selected node), standing in for the RouteAdvertisements
 * controller and its status.
 */
function advertisedVRFs(
  plan: TopologyPlan,
  network: TopologyPlan['cluster']['networks'][number],
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (network.kind !== 'ClusterUserDefinedNetwork') return out;
  for (const ra of plan.cluster.routeAdvertisements ?? [])
    for (const node of plan.cluster.inventory.nodes)
      if (advertisesCudnPodNetwork(ra, network.labels, node.labels))
        (out[node.name] ??= []).push(ra.targetVRF || 'default');
  return out;
}

function connectObjects(plan: TopologyPlan, documents: LoadedDocument[]): Json[] {
  const annotations = predictedAnnotations(plan.allocation).connects;
  return documents
    .filter((d) => d.kind === 'ClusterNetworkConnect')
    .map((d) => {
      const meta = (d.body.metadata ?? {}) as Json;
      const own = (meta.annotations ?? {}) as Record<string, string>;
      return { ...d.body, metadata: { ...meta, annotations: { ...own, ...annotations[d.metadata.name] } } };
    });
}

/** ClusterIP services of the Inventory, their target port the port. */
function serviceObjects(plan: TopologyPlan): Json[] {
  return plan.cluster.inventory.services.map((svc) => ({
    metadata: { name: svc.name, namespace: svc.namespace },
    spec: {
      type: 'ClusterIP',
      clusterIP: svc.clusterIPs[0],
      clusterIPs: svc.clusterIPs,
      ipFamilies: svc.clusterIPs.map((ip) => (ip.includes(':') ? 'IPv6' : 'IPv4')),
      ports: svc.ports.map((p) => ({
        name: `${p.protocol.toLowerCase()}-${p.port}`,
        protocol: p.protocol,
        port: p.port,
        targetPort: p.port,
      })),
    },
  }));
}

/**
 * The EndpointSlices upstream's mirror controller writes for a primary network (labelled with the
 * service, annotated with the network: util.GetServiceEndpointSlices), one per family, holding
 * the network's pods of the service's namespace, as our renderer takes them (topology/services.ts).
 */
function endpointSlices(plan: TopologyPlan): Json[] {
  const out: Json[] = [];
  for (const svc of plan.cluster.inventory.services)
    for (const network of plan.cluster.networks.filter(
      (n) => n.role === 'Primary' && n.namespaces.includes(svc.namespace),
    ))
      for (const family of ['IPv4', 'IPv6']) {
        const endpoints = plan.cluster.inventory.pods
          .filter((pod) => pod.namespace === svc.namespace)
          .flatMap((pod) =>
            (plan.state.pods[network.name]?.[`${pod.namespace}/${pod.name}`] ?? [])
              .map((ip) => ip.split('/')[0]!)
              .filter((ip) => ip.includes(':') === (family === 'IPv6'))
              .map((ip) => ({ addresses: [ip], conditions: { ready: true, serving: true }, nodeName: pod.node })),
          );
        if (endpoints.length === 0) continue;
        out.push({
          metadata: {
            name: `${svc.name}-${network.name}-${family.toLowerCase()}`.replace(/_/g, '-'),
            namespace: svc.namespace,
            labels: {
              'k8s.ovn.org/service-name': svc.name,
              'endpointslice.kubernetes.io/managed-by': 'endpointslice-mirror-controller.k8s.ovn.org',
            },
            annotations: { 'k8s.ovn.org/endpointslice-network': network.name },
          },
          addressType: family,
          endpoints,
          ports: svc.ports.map((p) => ({
            name: `${p.protocol.toLowerCase()}-${p.port}`,
            protocol: p.protocol,
            port: p.port,
          })),
        });
      }
  return out;
}

/** A zone whose node is on the old Layer2 topology runs upstream with Layer2UsesTransitRouter false. */
function zoneTopology(plan: TopologyPlan, zone: string): Pick<HarnessSettings, 'layer2UsesTransitRouter'> {
  const node = plan.cluster.inventory.nodes.find((n) => n.name === zone);
  return node?.layer2TopologyVersion === '1.0' ? { layer2UsesTransitRouter: false } : {};
}

export function harnessInput(plan: TopologyPlan, documents: LoadedDocument[], zone: string): HarnessInput {
  return {
    zone,
    settings: { ...harnessSettings(plan), ...zoneTopology(plan, zone) },
    nodes: plan.cluster.inventory.nodes.map((n) => nodeObject(plan, n.name)),
    namespaces: namespaceObjects(plan),
    pods: podObjects(plan),
    services: serviceObjects(plan),
    endpointSlices: endpointSlices(plan),
    networks: networkObjects(plan, documents, zone),
    connects: connectObjects(plan, documents),
    uplinks: documents.filter((d) => d.kind === 'Uplink').map((d) => d.body),
    uplinkStates: [],
  };
}
