/**
 * Every `ovnk` command registers itself here, one module per command (or command group).
 * Add a line when you add a command; nothing else in cli/ needs to change.
 */
import type { Command } from 'commander';
import { registerApply } from './apply';
import { registerAudit } from './audit';
import { registerCapacity } from './capacity';
import { registerCompletion } from './completion';
import { registerDemo } from './demo';
import { registerDestroy } from './destroy';
import { registerDiagram } from './diagram';
import { registerDiff } from './diff';
import { registerInventory } from './inventory';
import { registerLab } from './lab';
import { registerLabVm } from './labVm';
import { registerPlan } from './plan';
import { registerRepair } from './repair';

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
