/**
 * `ovnk inventory`'s I/O: list what an Inventory needs from a cluster's API server through the
 * Kubernetes client library (@kubernetes/client-node; no HTTP of ours): Nodes, Namespaces, the
 * NetworkAttachmentDefinitions (k8s.cni.cncf.io/v1) and ClusterNetworkConnects (k8s.ovn.org/v1)
 * of every namespace, and upstream's configmaps `ovn-config` and `ovnkube-config`. Lists are
 * paged (`limit`/`continue`). A kind the cluster does not serve (its CRD missing: 404) or a
 * configmap that is absent is a note, not a failure; everything else the API refuses is a
 * KubernetesReadError with the HTTP status, so the CLI can tell bad input from an unreachable
 * cluster. The reading of the objects is model/clusterInventory.ts's (pure).
 */
import type * as k8s from '@kubernetes/client-node';
import type { ConfigMapData } from '../../model/clusterConfig';
import { type ClusterInventory, inventoryFromCluster } from '../../model/clusterInventory';
import type { KubeObject } from '../../model/nodeAnnotations';
import { requireOptional } from '../optionalPackage';

export interface ClusterSource {
  /** A kubeconfig file (the client's own loader reads it: contexts, certificates, tokens, exec plugins). */
  kubeconfig: string;
  /** A context of that file; default its current-context. */
  context?: string;
  /** The namespace of upstream's configmaps. @default ovn-kubernetes */
  configNamespace?: string;
  /** The Inventory's metadata.name. @default the context's name */
  name?: string;
}

/** Why the cluster could not be read: `kind` picks the CLI's exit code (3 for input, 4 for the cluster). */
export class KubernetesReadError extends Error {
  override name = 'KubernetesReadError';
  constructor(
    message: string,
    readonly kind: 'input' | 'cluster',
  ) {
    super(message);
  }
}

const pageSize = 500;

export async function readClusterInventory(source: ClusterSource): Promise<ClusterInventory> {
  const client = loadClient();
  const config = kubeConfig(client, source);
  const core = config.makeApiClient(client.CoreV1Api);
  const custom = config.makeApiClient(client.CustomObjectsApi);
  const notes: string[] = [];
  const optional = (what: string, list: Promise<KubeObject[]>) => tolerate404(what, list, notes);
  const [nodes, namespaces, nads, connects] = await Promise.all([
    pages('Nodes', (page) => core.listNode(page)),
    pages('Namespaces', (page) => core.listNamespace(page)),
    optional(
      'NetworkAttachmentDefinitions (k8s.cni.cncf.io/v1)',
      pages('NetworkAttachmentDefinitions', (page) =>
        custom.listClusterCustomObject({
          group: 'k8s.cni.cncf.io',
          version: 'v1',
          plural: 'network-attachment-definitions',
          ...page,
        }),
      ),
    ),
    optional(
      'ClusterNetworkConnects (k8s.ovn.org/v1)',
      pages('ClusterNetworkConnects', (page) =>
        custom.listClusterCustomObject({
          group: 'k8s.ovn.org',
          version: 'v1',
          plural: 'clusternetworkconnects',
          ...page,
        }),
      ),
    ),
  ]);
  const namespace = source.configNamespace ?? 'ovn-kubernetes';
  const configMaps = await Promise.all(
    ['ovn-config', 'ovnkube-config'].map((name) => configMap(core, namespace, name, notes)),
  );
  const name = source.name ?? config.getCurrentContext();
  const read = inventoryFromCluster(name, { nodes, namespaces, nads, connects, configMaps: configMaps.flat() });
  return { inventory: read.inventory, notes: [...notes, ...read.notes] };
}

/**
 * The client library, loaded when a cluster is read (it is an ES module; Node >= 20.19 requires it);
 * an optional peer dependency, as only `ovnk inventory` reads a cluster.
 */
function loadClient(): typeof k8s {
  return requireOptional<typeof k8s>('@kubernetes/client-node', 'ovnk inventory');
}

function kubeConfig(client: typeof k8s, source: ClusterSource): k8s.KubeConfig {
  const config = new client.KubeConfig();
  try {
    config.loadFromFile(source.kubeconfig);
  } catch (error) {
    throw new KubernetesReadError(`cannot read kubeconfig ${source.kubeconfig}: ${messageOf(error)}`, 'input');
  }
  const contexts = config.getContexts().map((c) => c.name);
  if (source.context !== undefined) {
    if (!contexts.includes(source.context))
      throw new KubernetesReadError(
        `kubeconfig ${source.kubeconfig} has no context "${source.context}" (it has ${contexts.join(', ') || 'none'})`,
        'input',
      );
    config.setCurrentContext(source.context);
  }
  if (!config.getCurrentCluster())
    throw new KubernetesReadError(`kubeconfig ${source.kubeconfig} names no cluster for its current context`, 'input');
  return config;
}

type Page = { limit: number; _continue?: string };
type ListResult = { items?: unknown[]; metadata?: { _continue?: string; continue?: string } };

/** Every item of a list, page by page. */
async function pages(what: string, list: (page: Page) => Promise<unknown>): Promise<KubeObject[]> {
  const items: KubeObject[] = [];
  let next: string | undefined;
  do {
    let result: ListResult;
    try {
      result = (await list({ limit: pageSize, ...(next ? { _continue: next } : {}) })) as ListResult;
    } catch (error) {
      throw readFailure(`listing ${what}`, error);
    }
    items.push(...((result.items ?? []) as KubeObject[]));
    next = result.metadata?._continue ?? result.metadata?.continue;
  } while (next);
  return items;
}

async function tolerate404(what: string, list: Promise<KubeObject[]>, notes: string[]): Promise<KubeObject[]> {
  try {
    return await list;
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
    notes.push(`the cluster serves no ${what}; none are read`);
    return [];
  }
}

async function configMap(core: k8s.CoreV1Api, namespace: string, name: string, notes: string[]) {
  try {
    const found = await core.readNamespacedConfigMap({ name, namespace });
    return [{ name, data: found.data ?? {} } satisfies ConfigMapData];
  } catch (error) {
    if (codeOf(error) !== 404) throw readFailure(`reading configmap ${namespace}/${name}`, error);
    notes.push(`configmap ${namespace}/${name} does not exist`);
    return [];
  }
}

function readFailure(what: string, error: unknown): KubernetesReadError {
  const code = codeOf(error);
  const reason = code === undefined ? messageOf(error) : `HTTP ${code}: ${bodyMessage(error) ?? messageOf(error)}`;
  return Object.assign(new KubernetesReadError(`${what} failed: ${reason}`, 'cluster'), { status: code });
}

function codeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : codeOf(error);
}

function bodyMessage(error: unknown): string | undefined {
  const body = (error as { body?: unknown }).body;
  const parsed = typeof body === 'string' ? safeParse(body) : body;
  const message = (parsed as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
