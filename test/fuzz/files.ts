/**
 * The files the fuzz suite plans: a shipped topology mutated (mutations.ts) or a topology built
 * at random (topologies.ts), as YAML or JSON, each with a label saying where it came from.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { fuzzCase, render, seeds } from './mutations';
import { randomTopology } from './topologies';

export interface FuzzFile {
  label: string;
  json: boolean;
  text: string;
}

const mutated: fc.Arbitrary<FuzzFile> = fuzzCase.map((c) => ({
  label: `${seeds[c.seed]!.file} mutated`,
  json: c.json,
  text: render(c),
}));

const random: fc.Arbitrary<FuzzFile> = fc.tuple(randomTopology, fc.boolean()).map(([documents, json]) => ({
  label: 'a random topology',
  json,
  text: json ? JSON.stringify(documents, null, 1) : documents.map((d) => stringify(d)).join('---\n'),
}));

/** Half mutated shipped topologies, half random ones. */
export const fuzzFile: fc.Arbitrary<FuzzFile> = fc.oneof(mutated, random);
