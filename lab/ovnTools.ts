/**
 * The lab's OVN command-line tools (ovn-nbctl, ovn-sbctl) for tests, benchmarks and the demo: run
 * from the lab's OVN root (the trixie chroot) when it has one, against the lab's central database
 * or a zone's. Synchronous: callers need the answer before their next step.
 */
import { execFileSync } from 'node:child_process';

/** Where the tools run: the lab's OVN root (none: the host's OVN) and its central databases. */
export interface OvnToolsTarget {
  ovnRoot?: string;
  nb?: string;
  sb?: string;
}

/** `tool --db=<db> args...` from `ovnRoot`; its stdout. A failure throws with the tool's stderr. */
export function ovnTool(ovnRoot: string | undefined, tool: string, db: string, ...args: string[]): string {
  const argv = [tool, `--db=${db}`, ...args];
  return execFileSync(ovnRoot ? 'chroot' : tool, ovnRoot ? [ovnRoot, ...argv] : argv.slice(1), { encoding: 'utf8' });
}

/** `ovn-nbctl` against the lab's Northbound (a zone's: pass `{ ovnRoot, nb: zone.nb }`). */
export function nbctl(lab: OvnToolsTarget, ...args: string[]): string {
  return ovnTool(lab.ovnRoot, 'ovn-nbctl', database(lab.nb, 'Northbound'), ...args);
}

/** `ovn-sbctl` against the lab's Southbound. */
export function sbctl(lab: OvnToolsTarget, ...args: string[]): string {
  return ovnTool(lab.ovnRoot, 'ovn-sbctl', database(lab.sb, 'Southbound'), ...args);
}

function database(remote: string | undefined, which: string): string {
  if (remote === undefined) throw new Error(`this lab has no central ${which} (per-node zones): name a zone's`);
  return remote;
}
