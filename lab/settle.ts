/**
 * Whether a lab's OVN is still working through a change: the CPU time its translating daemons
 * (ovn-northd, each node's ovn-controller) used since the last look. Waits on the data path (a
 * ping's retries, a `--wait=hv` sync) keep going while that time grows and end once it stops, so a
 * loaded machine, where these daemons get the CPU late, makes a wait longer instead of failing it,
 * and an idle lab still ends it at once. Idle, these daemons use no CPU over seconds (measured:
 * 20 northds of a per-node lab, 0 ticks in 5 s).
 */
import { processActivity } from './activity';
import { namespacePrefix } from './layout';
import { nbctl, type OvnToolsTarget } from './ovnTools';
import { pidOf } from './processes';
import { listLabNames, readState, type LabState } from './state';

const TRANSLATORS = new Set(['ovn-northd', 'ovn-controller']);

const translatorPids = (state: LabState): number[] =>
  state.daemons
    .filter((d) => TRANSLATORS.has(d.program))
    .map(pidOf)
    .filter((pid): pid is number => pid !== undefined);

/** The lab a namespace of it (node, pod or fabric: `ol<index>-...`) belongs to. */
export function labOfNamespace(netns: string): LabState | undefined {
  const index = Number(/^ol(\d+)-/.exec(netns)?.[1]);
  if (!index) return undefined;
  return listLabNames()
    .map(readState)
    .find((state) => state?.layout.index === index && netns.startsWith(namespacePrefix(index)));
}

/** A lab's activity since the previous call of `working()` (the first call compares with creation). */
export function labActivity(state: LabState | undefined): { working(): boolean } {
  return processActivity(() => (state ? translatorPids(state) : []));
}

/** Seconds of one round of a waiting `ovn-nbctl`: enough for an idle lab, short enough to look again soon. */
const ROUND_SECONDS = 10;

/**
 * A waiting `ovn-nbctl` (`--wait=hv sync`, `wait-until ...`) against a lab's Northbound (a zone's:
 * `nb` is the zone's), in rounds that go on while the lab's ovn-northd and ovn-controllers work;
 * throws the tool's error once a round ends with the lab at rest and the wait still unmet.
 */
export function nbctlWhileLabWorks(lab: OvnToolsTarget & { name: string }, ...args: string[]): string {
  const activity = labActivity(readState(lab.name));
  for (;;) {
    try {
      return nbctl(lab, `--timeout=${ROUND_SECONDS}`, ...args);
    } catch (error) {
      if (!activity.working()) throw error;
    }
  }
}

/** `ovn-nbctl --wait=hv sync` until every chassis of the lab (or zone) has caught up, as above. */
export function syncChassis(lab: OvnToolsTarget & { name: string }): void {
  nbctlWhileLabWorks(lab, '--wait=hv', 'sync');
}
