/**
 * The cluster manager's allocations (no Go): for every topology file, the annotations upstream's
 * own cluster manager wrote (test/oracle/cluster-manager/, made by `npm run oracle`,
 * oracle/harness/ovnk_oracle_clustermanager_test.go: node ids, host subnets, NAD network ids and
 * Layer2 tunnel keys, CNC subnets and tunnel keys) equal what `ovnk plan` predicts
 * (predictedAnnotations) for the same file, up to the order upstream assigns in (arrival order of
 * its events: clusterManager.ts withoutArrivalOrder); the only differences allowed are those
 * test/oracle/accepted-cluster-manager.yaml lists with a reason.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AcceptedDifferences, readAccepted } from '../../../oracle/accepted';
import {
  compareAnnotations,
  plannedAnnotations,
  withoutArrivalOrder,
  type ClusterManagerDump,
} from '../../../oracle/clusterManager';
import { clusterManagerDumpFiles } from '../../../oracle/paths';
import { oraclePlan } from '../../../oracle/plan';

const ACCEPTED = 'test/oracle/accepted-cluster-manager.yaml';
const accepted = new AcceptedDifferences(existsSync(ACCEPTED) ? readAccepted(ACCEPTED) : []);
const dumps = clusterManagerDumpFiles();

describe("upstream's cluster manager as the oracle of our allocations", () => {
  it('has results to compare', () => {
    expect(dumps.length).toBeGreaterThan(0);
  });

  for (const file of dumps) {
    const dump = JSON.parse(readFileSync(file, 'utf8')) as ClusterManagerDump;
    it(`our plan of ${dump.source} allocates what upstream's cluster manager annotates`, () => {
      expect(dump.errors, 'the harness recorded errors').toEqual([]);
      const planned = oraclePlan(readFileSync(dump.source, 'utf8'));
      if (typeof planned === 'string') throw new Error(`${dump.source}: ${planned}`);
      expect(Object.keys(dump.annotations.nodes).length).toBeGreaterThan(0);
      const ours = plannedAnnotations(planned.plan);
      const retried = dump.controllerErrors.some((e) => e.includes('node-subnets failed'));
      const differences = compareAnnotations(withoutArrivalOrder(dump.annotations, ours, retried), ours);
      expect(accepted.unexplained(differences, dump.source)).toEqual([]);
    });
  }

  it('lists no accepted difference that explains nothing', () => {
    expect(accepted.idle()).toEqual([]);
  });
});
