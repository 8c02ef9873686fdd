/**
 * One run's access to the nodes of an Uplink plan: per node an SSH runner (pinned host key, key
 * auth) and its Open_vSwitch database tunnelled over that same connection. Reads the node's facts
 * (one command, one stream, one transaction) and writes a guarded mapping change. Every SSH round
 * trip (command, stream open, transaction) is counted. A node that fails, fails alone.
 */
import {
  HostError,
  HostKeyRejectedError,
  HostPool,
  type HostKeyPin,
  type HostRunner,
  openUnixSocketStream,
  type SshHostRunner,
} from '../../host';
import { own } from '../../model/dict';
import { type Refusal, refusal, success } from '../../model/outcome';
import type { NodeTarget } from '../../model/targets';
import { OvsdbClient } from '../../ovsdb/client';
import { bridgeMappingsKey, type MappingChange } from '../../uplink/mappings';
import type { NodeDiscovery } from '../../uplink/plan';
import { hostFactsArgv, parseHostFacts } from './hostFacts';
import { mappingOperations, type OvsRead, ownKeyOperations, readOvsFacts, VSWITCH_DATABASE } from './ovsFacts';

export const defaultOvsDb = '/var/run/openvswitch/db.sock';

/** SSH credentials for nodes whose target names no key file (Pulumi: from stack config, never from state). */
export interface NodeCredentials {
  privateKey?: string;
  keyPath?: string;
  agent?: string;
  /** The pin of nodes whose target has no `hostKey`. */
  hostKey?: HostKeyPin;
  /** Where a key can come from, in words, for the error when there is none. */
  sources: string;
}

export interface SessionOptions {
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
  ssh?: NodeCredentials;
}

interface NodeHandle {
  runner: SshHostRunner;
  db?: Promise<OvsdbClient>;
  read?: OvsRead;
}

export function hostKeyPin(text: string | undefined): HostKeyPin | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  return /^(SHA256:)?[A-Za-z0-9+/]{43}=?$/.test(text.trim()) ? { fingerprint: text.trim() } : { knownHosts: text };
}

/** Why a node could not be discovered or written: its reason and the error's words. */
export function nodeFailure(error: unknown): Refusal<string> {
  const why = error instanceof Error ? error.message : String(error);
  if (error instanceof HostKeyRejectedError) return refusal('HostKeyRejected', why);
  if (error instanceof HostError) return refusal(error.failure === 'auth' ? 'HostAuthFailed' : 'HostUnreachable', why);
  return refusal('DiscoveryFailed', why);
}

export class UplinkSession {
  roundTrips = 0;
  private readonly pool = new HostPool();
  private readonly handles = new Map<string, NodeHandle>();

  constructor(
    private readonly targets: Readonly<Record<string, NodeTarget>>,
    private readonly options: SessionOptions = {},
  ) {}

  private handle(node: string): NodeHandle {
    let handle = this.handles.get(node);
    if (handle) return handle;
    const t = own(this.targets, node);
    if (!t)
      throw new Error(`node ${node} has no SSH target: give spec.targets.nodes.${node} (host, user, hostKey, keyPath)`);
    const runner = this.pool.runner({
      host: t.host,
      port: t.port,
      user: t.user,
      ...this.keyOf(node, t),
      hostKey: hostKeyPin(t.hostKey) ?? this.options.ssh?.hostKey,
      connectTimeoutMs: this.options.connectTimeoutMs ?? 5_000,
      commandTimeoutMs: this.options.commandTimeoutMs,
    });
    handle = { runner };
    this.handles.set(node, handle);
    return handle;
  }

  /** The target's key file, else the session's credentials (key, key file, agent). */
  private keyOf(node: string, t: NodeTarget): { keyPath?: string; privateKey?: string; agent?: string } {
    if (t.keyPath !== undefined) return { keyPath: t.keyPath };
    const ssh = this.options.ssh;
    if (!ssh || (!ssh.privateKey && !ssh.keyPath && !ssh.agent))
      throw new Error(`node ${node} has no SSH key: ${ssh?.sources ?? `give spec.targets.nodes.${node}.keyPath`}`);
    return { privateKey: ssh.privateKey, keyPath: ssh.keyPath, agent: ssh.agent };
  }

  private database(node: string): Promise<OvsdbClient> {
    const handle = this.handle(node);
    if (!handle.db) {
      const path = (this.targets[node]!.ovsDb ?? defaultOvsDb).replace(/^unix:/, '');
      this.roundTrips++;
      handle.db = OvsdbClient.connect(openUnixSocketStream(handle.runner, path));
      handle.db.catch(() => (handle.db = undefined));
    }
    return handle.db;
  }

  /** The node's HostRunner (the same SSH connection), counting each command as a round trip. */
  runner(node: string): HostRunner {
    const { runner } = this.handle(node);
    return {
      describe: runner.describe,
      run: (argv, opts) => (this.roundTrips++, runner.run(argv, opts)),
      close: async () => undefined,
    };
  }

  async discover(node: string): Promise<NodeDiscovery> {
    try {
      const handle = this.handle(node);
      this.roundTrips += 2;
      const [host, read] = await Promise.all([
        handle.runner.run(hostFactsArgv),
        this.database(node).then(readOvsFacts),
      ]);
      if (host.exitCode !== 0)
        throw new Error(
          `reading interfaces and routes on ${handle.runner.describe} failed (exit ${host.exitCode}): ${host.stderr.trim()}`,
        );
      handle.read = read;
      return success({ node, ...parseHostFacts(host.stdout), ovs: read.facts });
    } catch (error) {
      return nodeFailure(error);
    }
  }

  /**
   * Write a change planned against the last discovery of `node` (guarded by `wait` on what it
   * read); returns the node's external_ids as they now are.
   */
  async writeMappings(node: string, change: MappingChange, ownedKey: string): Promise<Record<string, string>> {
    const read = this.handle(node).read;
    if (!read) throw new Error(`node ${node} was not discovered before writing its bridge mappings`);
    this.roundTrips++;
    const db = await this.database(node);
    await db.transact(VSWITCH_DATABASE, mappingOperations(read.rootUuid, read.facts.externalIds, change, ownedKey));
    const ids = { ...read.facts.externalIds };
    delete ids[bridgeMappingsKey];
    delete ids[ownedKey];
    if (change.mappings !== undefined) ids[bridgeMappingsKey] = change.mappings;
    if (change.owned !== undefined) ids[ownedKey] = change.owned;
    read.facts = {
      ...read.facts,
      externalIds: ids,
      ...(change.mappings !== undefined ? { bridgeMappings: change.mappings } : {}),
    };
    return ids;
  }

  /**
   * Set (or, for an undefined value, remove) keys of the node's Open_vSwitch external_ids that only
   * this owner writes, in one transaction: a mutate of those keys alone, so no guard is needed.
   */
  async writeOwnKeys(node: string, keys: Record<string, string | undefined>): Promise<void> {
    const read = this.handle(node).read;
    if (!read) throw new Error(`node ${node} was not discovered before writing its condition times`);
    this.roundTrips++;
    const db = await this.database(node);
    await db.transact(VSWITCH_DATABASE, ownKeyOperations(read.rootUuid, keys));
    const ids = { ...read.facts.externalIds };
    for (const [key, value] of Object.entries(keys))
      if (value === undefined) delete ids[key];
      else ids[key] = value;
    read.facts = { ...read.facts, externalIds: ids };
  }

  async close(): Promise<void> {
    for (const handle of this.handles.values()) (await handle.db?.catch(() => undefined))?.close();
    this.handles.clear();
    await this.pool.closeAll();
  }
}
