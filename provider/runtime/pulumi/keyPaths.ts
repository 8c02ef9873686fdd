/**
 * An Inventory given to Pulumi must not name SSH key files: resource inputs are stored in the
 * stack's state, and a key's path is as much the stack's secret as the key. The providers read the
 * key from stack config (`ovnk:sshPrivateKey` as a secret, `ovnk:sshKeyFile`) or an SSH agent
 * instead; the CLI, which keeps no such state, still reads `keyPath`. Pure.
 */
import { type CheckFailure, checkFailure } from './protocol';
import { SSH_KEY_SOURCES } from './settings';

/** One problem per `spec.targets.nodes.<node>.keyPath` of the inventory, `property` prefixed by `at`. */
export function keyPathProblems(inventory: unknown, at = 'inventory'): { property: string; message: string }[] {
  const spec = (inventory as { spec?: { targets?: { nodes?: unknown } } } | null)?.spec;
  const nodes = spec?.targets?.nodes;
  if (nodes === null || typeof nodes !== 'object') return [];
  return Object.entries(nodes as Record<string, unknown>)
    .filter(([, target]) => target !== null && typeof target === 'object' && 'keyPath' in target)
    .map(([node]) => ({
      property: `${at}.spec.targets.nodes.${node}.keyPath`,
      message: `spec.targets.nodes.${node}.keyPath would be stored in the Pulumi state: remove it and give the key as ${SSH_KEY_SOURCES}`,
    }));
}

/** keyPathProblems as check failures (InvalidField). */
export function keyPathFailures(inventory: unknown, at = 'inventory'): CheckFailure[] {
  return keyPathProblems(inventory, at).map((p) => checkFailure(p.property, 'InvalidField', p.message));
}
