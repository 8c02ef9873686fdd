/** `ovnk lab ...`: placeholder until the lab lands (see lab/). */
import type { Command } from 'commander';

export function registerLab(program: Command): void {
  program.command('lab').description('Run the embedded OVN lab (up, down, status, inventory, pods, exec)');
}
