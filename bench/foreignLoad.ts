/**
 * A synthetic upstream-like load for a Northbound: the rows ovn-kubernetes' default network and
 * its services and network policies write, none of them ours. At `scale` 1 it is 100 node
 * switches with 30 pod ports each, ovn_cluster_router with a port per node, 10,000 service load
 * balancers held by one cluster-wide Load_Balancer_Group (upstream's clusterLBGroup, which every
 * node switch and the router hold), 1,000 port groups holding 50 ACLs each (50,000 ACLs) and
 * 1,000 address sets; `scale` 0.1 is a tenth of each. Names and external_ids follow upstream's
 * (go-controller/pkg/ovn: `rtos-<node>`, `Service_<ns>/<name>_TCP_cluster`, db_object_ids' ACL and
 * address-set ids), so a server selects on them as it would on a real cluster's rows. Written in
 * one transaction (writeLoad) or one object at a time (writeLoadPiecewise): the same rows.
 */
import { OvsdbClient } from '../provider/ovsdb/client';
import type { Condition, Operation, WireAtom, WireMap, WireValue } from '../provider/ovsdb/notation';

const NB = 'OVN_Northbound';
const CONTROLLER = 'default-network-controller';

export interface LoadSize {
  nodes: number;
  podsPerNode: number;
  loadBalancers: number;
  portGroups: number;
  aclsPerGroup: number;
  addressSets: number;
}

export function loadSize(scale: number): LoadSize {
  const n = (count: number) => Math.max(1, Math.round(count * scale));
  return {
    nodes: n(100),
    podsPerNode: 30,
    loadBalancers: n(10_000),
    portGroups: n(1000),
    aclsPerGroup: 50,
    addressSets: n(1000),
  };
}

/** Rows the load holds. */
export function loadRows(size: LoadSize): number {
  return (
    1 + // clusterLBGroup
    1 + // ovn_cluster_router
    size.nodes * (3 + size.podsPerNode) + // switch, k8s- port, router port, pods
    size.loadBalancers +
    size.portGroups * (1 + size.aclsPerGroup) +
    size.addressSets
  );
}

const ip = (i: number, base: number) => `10.${base + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`;
const mac = (i: number) =>
  `0a:58:0a:${((i >> 16) & 255).toString(16).padStart(2, '0')}:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`;
const set = (uuids: string[]): WireValue => ['set', uuids.map((u): WireAtom => ['named-uuid', u])];
const map = (entries: Record<string, string>): WireMap => ['map', Object.entries(entries)];

function serviceRows(size: LoadSize): Operation[] {
  const ops: Operation[] = [];
  for (let i = 0; i < size.loadBalancers; i++) {
    const service = `ns-${i % 500}/svc-${i}`;
    ops.push({
      op: 'insert',
      table: 'Load_Balancer',
      'uuid-name': `lb${i}`,
      row: {
        name: `Service_${service}_TCP_cluster`,
        protocol: 'tcp',
        vips: map({ [`${ip(i, 96)}:80`]: `${ip(2 * i, 128)}:8080,${ip(2 * i + 1, 128)}:8080` }),
        options: map({ event: 'false', hairpin_snat_ip: '169.254.0.5 fd69::5', reject: 'true', skip_snat: 'false' }),
        external_ids: map({ 'k8s.ovn.org/kind': 'Service', 'k8s.ovn.org/owner': service }),
      },
    });
  }
  ops.push({
    op: 'insert',
    table: 'Load_Balancer_Group',
    'uuid-name': 'clusterLBGroup',
    row: { name: 'clusterLBGroup', load_balancer: set(Array.from({ length: size.loadBalancers }, (_, i) => `lb${i}`)) },
  });
  return ops;
}

function nodeRows(size: LoadSize): Operation[] {
  const ops: Operation[] = [];
  const routerPorts: string[] = [];
  for (let n = 0; n < size.nodes; n++) {
    const node = `load-node-${n}`;
    const ports: string[] = [];
    for (let p = 0; p < size.podsPerNode; p++) {
      const i = n * size.podsPerNode + p;
      ports.push(`pod${i}`);
      ops.push({
        op: 'insert',
        table: 'Logical_Switch_Port',
        'uuid-name': `pod${i}`,
        row: {
          name: `ns-${i % 500}_pod-${i}`,
          addresses: `${mac(i)} ${ip(i, 244)}`,
          port_security: `${mac(i)} ${ip(i, 244)}`,
          external_ids: map({ namespace: `ns-${i % 500}`, pod: 'true' }),
        },
      });
    }
    ops.push(
      {
        op: 'insert',
        table: 'Logical_Switch_Port',
        'uuid-name': `k8s${n}`,
        row: { name: `k8s-${node}`, addresses: mac(n) },
      },
      {
        op: 'insert',
        table: 'Logical_Router_Port',
        'uuid-name': `rtos${n}`,
        row: { name: `rtos-${node}`, mac: mac(n), networks: `${ip(n << 8, 244)}/24` },
      },
      {
        op: 'insert',
        table: 'Logical_Switch',
        row: {
          name: node,
          ports: set([...ports, `k8s${n}`]),
          load_balancer_group: set(['clusterLBGroup']),
          other_config: map({ subnet: `${ip(n << 8, 244)}/24` }),
        },
      },
    );
    routerPorts.push(`rtos${n}`);
  }
  ops.push({
    op: 'insert',
    table: 'Logical_Router',
    row: { name: 'ovn_cluster_router', ports: set(routerPorts), load_balancer_group: set(['clusterLBGroup']) },
  });
  return ops;
}

function policyRows(size: LoadSize): Operation[] {
  const ops: Operation[] = [];
  for (let s = 0; s < size.addressSets; s++) {
    const id = `${CONTROLLER}:Namespace:ns-${s}:v4`;
    ops.push({
      op: 'insert',
      table: 'Address_Set',
      row: {
        name: `a${10_000_000_000 + s}`,
        addresses: ['set', Array.from<unknown, WireAtom>({ length: 8 }, (_, k) => ip(s * 8 + k, 244))],
        external_ids: map({
          'k8s.ovn.org/id': id,
          'k8s.ovn.org/owner-controller': CONTROLLER,
          'k8s.ovn.org/name': `ns-${s}`,
        }),
      },
    });
  }
  for (let g = 0; g < size.portGroups; g++) {
    const acls: string[] = [];
    for (let a = 0; a < size.aclsPerGroup; a++) {
      const i = g * size.aclsPerGroup + a;
      const id = `${CONTROLLER}:NetworkPolicy:ns-${g}:np-${g}:Ingress:${a}:None:-1`;
      acls.push(`acl${i}`);
      ops.push({
        op: 'insert',
        table: 'ACL',
        'uuid-name': `acl${i}`,
        row: {
          action: 'allow-related',
          direction: 'to-lport',
          priority: 1001,
          match: `ip4.src == {$a${10_000_000_000 + (i % Math.max(1, size.addressSets))}} && outport == @a${20_000_000 + g}`,
          external_ids: map({
            'k8s.ovn.org/id': id,
            'k8s.ovn.org/owner-controller': CONTROLLER,
            'k8s.ovn.org/owner-type': 'NetworkPolicy',
          }),
        },
      });
    }
    ops.push({
      op: 'insert',
      table: 'Port_Group',
      row: {
        name: `a${20_000_000 + g}`,
        acls: set(acls),
        external_ids: map({
          'k8s.ovn.org/id': `${CONTROLLER}:NetworkPolicy:ns-${g}:np-${g}`,
          'k8s.ovn.org/owner-controller': CONTROLLER,
        }),
      },
    });
  }
  return ops;
}

/** Writes the load (one transaction: the node rows name the services' group); returns how many rows it holds. */
export async function writeLoad(endpoint: string, size: LoadSize): Promise<number> {
  const client = await OvsdbClient.connect(endpoint, { requestTimeoutMs: 600_000 });
  try {
    await client.transact(NB, [...serviceRows(size), ...nodeRows(size), ...policyRows(size)], { timeoutMs: 600_000 });
    return loadRows(size);
  } finally {
    client.close();
  }
}

type Insert = Extract<Operation, { op: 'insert' }>;
const PIECE = 200;
const chunks = <T>(xs: T[]): T[][] =>
  Array.from({ length: Math.ceil(xs.length / PIECE) }, (_, i) => xs.slice(i * PIECE, (i + 1) * PIECE));
/** Adds the rows `inserts` names to `column` of the row of `table` named `name`. */
const addTo = (table: string, name: string, column: string, inserts: Insert[]): Operation => ({
  op: 'mutate',
  table,
  where: [['name', '==', name]],
  mutations: [[column, 'insert', set(inserts.map((o) => o['uuid-name']!))]],
});

/**
 * The load's transactions as upstream's controllers write theirs, one object at a time: the
 * cluster's group and router first, then per node its switch, ports and router port, per port
 * group its ACLs, services and address sets PIECE at a time. Same rows as writeLoad; the server
 * parses many small requests instead of one, so its heap does not hold the rows among the holes
 * one large parse leaves (what a server restarted from its database file holds).
 */
function loadPieces(size: LoadSize, group: WireAtom): Operation[][] {
  const lbs = serviceRows(size).filter((o): o is Insert => o.op === 'insert' && o.table === 'Load_Balancer');
  const nodes: Operation[][] = [[]];
  for (const o of nodeRows(size) as Insert[]) {
    if (o.table === 'Logical_Router') continue;
    const piece = nodes[nodes.length - 1]!;
    if (o.table !== 'Logical_Switch') piece.push(o);
    else {
      const rtos = piece.filter((p): p is Insert => p.op === 'insert' && p.table === 'Logical_Router_Port');
      piece.push({ ...o, row: { ...o.row, load_balancer_group: group } });
      piece.push(addTo('Logical_Router', 'ovn_cluster_router', 'ports', rtos));
      nodes.push([]);
    }
  }
  const policies: Operation[][] = [[]];
  const policy = policyRows(size) as Insert[];
  for (const o of policy.filter((p) => p.table !== 'Address_Set')) {
    policies[policies.length - 1]!.push(o);
    if (o.table === 'Port_Group') policies.push([]);
  }
  return [
    ...chunks(lbs).map((piece) => [...piece, addTo('Load_Balancer_Group', 'clusterLBGroup', 'load_balancer', piece)]),
    ...nodes,
    ...chunks(policy.filter((p) => p.table === 'Address_Set')),
    ...policies,
  ].filter((piece) => piece.length > 0);
}

/** Writes the load one object at a time (loadPieces); returns how many rows it holds. */
export async function writeLoadPiecewise(endpoint: string, size: LoadSize): Promise<number> {
  const client = await OvsdbClient.connect(endpoint, { requestTimeoutMs: 600_000 });
  try {
    const [created] = await client.transact(NB, [
      { op: 'insert', table: 'Load_Balancer_Group', row: { name: 'clusterLBGroup' } },
    ]);
    const group: WireAtom = ['uuid', created!.uuid!];
    const router = { name: 'ovn_cluster_router', load_balancer_group: group };
    await client.transact(NB, [{ op: 'insert', table: 'Logical_Router', row: router }]);
    for (const piece of loadPieces(size, group)) await client.transact(NB, piece);
    return loadRows(size);
  } finally {
    client.close();
  }
}

/**
 * Deletes the load (its root rows; the server deletes their ports and ACLs with them), leaving
 * a database of only the rows written beside it in a server whose heap held the load.
 */
export async function dropLoad(endpoint: string, size: LoadSize): Promise<void> {
  const client = await OvsdbClient.connect(endpoint, { requestTimeoutMs: 600_000 });
  const ids = (key: string, value: string): Condition[] => [['external_ids', 'includes', ['map', [[key, value]]]]];
  try {
    await client.transact(
      NB,
      [
        ...Array.from({ length: size.nodes }, (_, n): Operation => ({
          op: 'delete',
          table: 'Logical_Switch',
          where: [['name', '==', `load-node-${n}`]],
        })),
        { op: 'delete', table: 'Logical_Router', where: [['name', '==', 'ovn_cluster_router']] },
        { op: 'delete', table: 'Load_Balancer_Group', where: [['name', '==', 'clusterLBGroup']] },
        { op: 'delete', table: 'Load_Balancer', where: ids('k8s.ovn.org/kind', 'Service') },
        { op: 'delete', table: 'Port_Group', where: ids('k8s.ovn.org/owner-controller', CONTROLLER) },
        { op: 'delete', table: 'Address_Set', where: ids('k8s.ovn.org/owner-controller', CONTROLLER) },
      ],
      { timeoutMs: 600_000 },
    );
  } finally {
    client.close();
  }
}
