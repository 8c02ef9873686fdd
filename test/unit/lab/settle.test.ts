/**
 * The lab's activity measure behind the waits that last while the lab works (lab/settle.ts) and
 * the restart's wait for a daemon being started (lab/processes.ts startingSince), on real
 * processes: one burning CPU under an ovn-controller record, one idle, one started and gone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startingSince, ticksSinceBoot } from '../../../lab/processes';
import { labActivity } from '../../../lab/settle';
import type { LabState } from '../../../lab/state';

const children: ChildProcess[] = [];
function start(script: string, ...args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['-e', script, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  return child;
}
const exited = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve));
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A lab state whose only daemon is `child`, recorded as `program`. */
const labWith = (child: ChildProcess, program: string) =>
  ({ daemons: [{ name: `n1/${program}`, program, pidFile: '/nonexistent', pid: child.pid }] }) as unknown as LabState;

describe('a lab working through a change', () => {
  it('is working while its ovn-controller burns CPU, and at rest once it idles', async () => {
    // burns about 0.3 s of CPU (however long a loaded machine makes that), says so, then idles
    const busy = start(
      "let x = 0; for (let i = 0; i < 3e8; i++) x ^= i; process.stdout.write('idle ' + x); setTimeout(() => {}, 60000)",
    );
    const idle = new Promise((resolve) => busy.stdout!.once('data', resolve));
    const activity = labActivity(labWith(busy, 'ovn-controller'));
    let seen = false;
    while (!seen && (await Promise.race([idle.then(() => false), sleep(300).then(() => true)])))
      seen = activity.working();
    expect(seen).toBe(true);
    await idle;
    activity.working(); // the end of the burst
    await sleep(500);
    expect(activity.working()).toBe(false);
  });

  it('is at rest when only daemons that translate nothing (ovsdb-server) burn CPU, or when it has no state', async () => {
    const busy = start("let x = 0; for (let i = 0; i < 3e8; i++) x ^= i; process.stdout.write('done ' + x);");
    const activity = labActivity(labWith(busy, 'ovsdb-server'));
    await new Promise((resolve) => busy.stdout!.once('data', resolve));
    expect(activity.working()).toBe(false);
    expect(labActivity(undefined).working()).toBe(false);
  });
});

describe('a daemon being started', () => {
  it('is starting while a process of the program naming the lab runs, and not once it exited', async () => {
    const since = ticksSinceBoot();
    const marker = `/tmp/ovnk-lab/settle-test-${process.pid}`;
    const child = start('setTimeout(() => {}, 700)', marker);
    await sleep(200);
    expect(startingSince('node', marker, since)).toBe(true);
    expect(startingSince('node', `${marker}-other`, since)).toBe(false);
    expect(startingSince('node', marker, ticksSinceBoot() + 100)).toBe(false);
    await exited(child);
    expect(startingSince('node', marker, since)).toBe(false);
  });
});
