/**
 * One guest per test file: boot a vm lab with a data segment under a per-run name, hand out a
 * HostRunner with the pinned host key, and stop it (by pid) afterwards.
 */
import { SshHostRunner } from '../../provider/host';
import { readVmState, vmDown, vmTarget, vmUp, type VmLabStatus } from '../../lab/vm';

export interface Guest {
  lab: string;
  status: VmLabStatus;
  runner: SshHostRunner;
  node: string;
  sh(script: string): Promise<string>;
}

export async function bootGuest(): Promise<Guest> {
  const lab = `v${process.pid.toString(36)}`.slice(0, 7);
  await vmDown(lab);
  const status = await vmUp({ name: lab, nodes: 1, data: true });
  const state = readVmState(lab)!;
  const runner = new SshHostRunner(vmTarget(state, state.nodes[0]!));
  const sh = async (script: string) => {
    const result = await runner.run(['sh', '-ec', script]);
    if (result.exitCode !== 0) throw new Error(`guest script failed: ${script}: ${result.stderr}`);
    return result.stdout;
  };
  return { lab, status, runner, node: state.nodes[0]!.name, sh };
}

export async function stopGuest(guest: Guest | undefined): Promise<void> {
  if (!guest) return;
  await guest.runner.close();
  await vmDown(guest.lab);
}
