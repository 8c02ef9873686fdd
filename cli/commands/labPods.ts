/**
 * The lab's pods of one owner made to match a plan: refuse to take over another owner's pod,
 * plug new or changed ones, move the ones whose node alone changed, unplug the ones no longer
 * wanted (lab/pods.ts does the plumbing).
 */
import { addPod, type LabStatus, movePod, readState as readLab, removePod } from '../../lab';
import type { RuntimeState, ZonePlan } from '../../provider/runtime/cli';
import { CliError, ExitCode } from '../contract';

export interface PodChanges {
  plugged: string[];
  unplugged: string[];
  /** Pods whose node alone changed, moved with their network namespace (lab/pods.ts movePod); only when some were. */
  moved?: string[];
}

/** The same port, MAC and addresses: the pod can stay (or move, when only its node changed). */
const samePort = (record: Record<string, unknown>, plug: ZonePlan['pods'][number]) =>
  record.ifaceId === plug.ifaceId &&
  record.mac === plug.mac &&
  JSON.stringify(record.addresses) === JSON.stringify(plug.addresses);

/**
 * Refuses (before anything is sent) a pod with ports on several networks, as the lab plugs one
 * interface per pod, and to replug a lab pod of the same name that another owner plugged.
 */
export function checkLabPods(lab: LabStatus, wanted: ZonePlan['pods'], owned: string[]): void {
  checkOneInterface(lab, wanted);
  const ours = new Set(owned);
  const records = readLab(lab.name)?.pods ?? [];
  for (const plug of wanted) {
    const record = records.find((p) => p.namespace === plug.namespace && p.name === plug.name);
    const key = `${plug.namespace}/${plug.name}`;
    if (record && record.ifaceId !== plug.ifaceId && !ours.has(key)) {
      const message = `pod ${key} is already plugged in lab "${lab.name}" on port ${String(record.ifaceId)}, not by this owner: nothing was changed`;
      throw new CliError(ExitCode.refused, message, {
        path: 'spec.pods',
        problems: [{ reason: 'PodOfAnotherOwner', path: 'spec.pods', message }],
      });
    }
  }
}

/** `namespace/name` of every pod the plan puts in one of `zones` (the pods of zones that failed stay as they are). */
export function podsOfZones(planned: ZonePlan[], zones: string[]): Set<string> {
  return new Set(
    planned.filter((z) => zones.includes(z.name)).flatMap((z) => z.pods.map((p) => `${p.namespace}/${p.name}`)),
  );
}

/** `namespace/name` of every pod a state gave addresses to. */
export function podKeysOf(state: RuntimeState | undefined): string[] {
  return Object.values(state?.pods ?? {}).flatMap((m) => Object.keys(m));
}

/** Make the lab's pods of this owner match the plan: plug new or changed ones, unplug the `owned` rest. */
export async function syncLabPods(lab: LabStatus, wanted: ZonePlan['pods'], owned: string[]): Promise<PodChanges> {
  const changes: PodChanges = { plugged: [], unplugged: [] };
  const keep = new Set(wanted.map((p) => `${p.namespace}/${p.name}`));
  const before = new Set(owned);
  for (const key of [...before].filter((k) => !keep.has(k)).sort()) {
    const [namespace, name] = key.split('/') as [string, string];
    if (readLab(lab.name)?.pods.some((p) => p.namespace === namespace && p.name === name)) changes.unplugged.push(key);
    await removePod(lab.name, namespace, name);
  }
  for (const plug of wanted) {
    const key = `${plug.namespace}/${plug.name}`;
    const record = readLab(lab.name)?.pods.find((p) => p.namespace === plug.namespace && p.name === plug.name);
    if (record && samePort(record, plug) && record.node === plug.node) continue;
    if (record && samePort(record, plug)) {
      // only its node changed: moved as a live migration moves a VM, with its workload running
      await movePod(lab.name, plug.namespace, plug.name, plug.node);
      changes.moved = [...(changes.moved ?? []), key];
      continue;
    }
    if (record) await removePod(lab.name, plug.namespace, plug.name);
    await addPod(lab.name, {
      namespace: plug.namespace,
      name: plug.name,
      node: plug.node,
      ifaceId: plug.ifaceId,
      mac: plug.mac,
      addresses: plug.addresses,
      gateways: plug.gateways,
      ...(plug.routes ? { routes: plug.routes } : {}),
      mtu: plug.mtu,
    });
    changes.plugged.push(key);
  }
  return changes;
}

/** The lab's pods have one interface: a pod the plan gives ports on two networks cannot be plugged. */
function checkOneInterface(lab: LabStatus, wanted: ZonePlan['pods']): void {
  const networks = new Map<string, string[]>();
  for (const plug of wanted) {
    const key = `${plug.namespace}/${plug.name}`;
    networks.set(key, [...(networks.get(key) ?? []), plug.network]);
  }
  for (const [key, names] of networks) {
    if (names.length < 2) continue;
    const message = `pod ${key} has ports on networks ${names.join(' and ')}, but lab "${lab.name}" plugs one interface per pod: attach it to one network only (its namespace's primary network or one of spec.pods[].networks): nothing was changed`;
    throw new CliError(ExitCode.refused, message, {
      path: 'spec.pods',
      problems: [{ reason: 'LabPodInterfaces', path: 'spec.pods', message }],
    });
  }
}
