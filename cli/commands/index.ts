/**
 * Every `ovnk` command registers itself here, one module per command (or command group).
 * Add a line when you add a command; nothing else in cli/ needs to change.
 */
import type { Command } from 'commander';
import { registerLab } from './lab';
import { registerPlan } from './plan';
import { registerApply } from './apply';
import { registerDiff } from './diff';
import { registerAudit } from './audit';
import { registerDestroy } from './destroy';
import { registerRepair } from './repair';
import { registerLabVm } from './labVm';
import { registerDemo } from './demo';
import { registerCapacity } from './capacity';
import { registerDiagram } from './diagram';
import { registerInventory } from './inventory';
import { registerCompletion } from './completion';

export type Register = (program: Command) => void;

export const commands: Register[] = [
  registerLab,
  registerPlan,
  registerApply,
  registerDiff,
  registerAudit,
  registerDestroy,
  registerRepair,
  registerLabVm,
  registerDemo,
  registerCapacity,
  registerDiagram,
  registerInventory,
  registerCompletion,
];
