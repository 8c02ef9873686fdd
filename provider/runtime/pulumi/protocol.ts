/**
 * The dynamic-provider contract as our runtime implements it: the method shapes the Pulumi host
 * calls (mirroring `@pulumi/pulumi/dynamic` without importing the SDK, so the runtime loads in
 * any project), the preview-time unknown sentinel, JSON-clean outputs, and the typed error that
 * reports a partially applied resource with its id so the engine's state stays true.
 */
import type { Problem, Reason } from '../../model/problem';
import type { UplinkProblemReason } from '../../uplink/problems';

/** Every reason a check failure may give: the model's and the Uplink planner's. */
export type FailureReason = Reason | UplinkProblemReason;

/** What the host sends for a value that is not known yet during preview (pulumi/pulumi#6310). */
export const UNKNOWN = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';

/**
 * State written by this runtime carries this version; read() and update() migrate older ones.
 * 1: every resource carried the whole topology and the cluster state; 2: per-zone resources
 * carry only their packed slice (ClusterAllocations still keeps the topology and the state).
 */
export const SCHEMA_VERSION = 2;

export interface CheckFailure {
  property: string;
  reason: string;
}

/**
 * A Problem as the engine shows a check failure: the property, and `<Reason>: <message>` (the
 * wire format has one text field). Only here is a reason turned into text; until then it is typed.
 */
export function checkFailure(property: string, reason: FailureReason, message: string): CheckFailure {
  return { property, reason: `${reason}: ${message}` };
}

/** A model Problem at its own path. */
export const failureOf = (problem: Pick<Problem, 'path' | 'message'> & { reason: FailureReason }): CheckFailure =>
  checkFailure(problem.path, problem.reason, problem.message);

export interface CheckResult<T> {
  inputs?: T;
  failures?: CheckFailure[];
}

export type PropertyDiffKind = 'add' | 'addReplace' | 'delete' | 'deleteReplace' | 'update' | 'updateReplace';

/** One entry of a detailed diff, as the provider protocol has it (PropertyDiff). */
export interface PropertyDiff {
  kind: PropertyDiffKind;
  inputDiff: boolean;
}

/** Which network, connect, node or zone changes, in words (detailedDiff.ts): `networks[blue-network]`. */
export type DetailedDiff = Record<string, PropertyDiff>;

export interface DiffResult {
  changes: boolean;
  replaces?: string[];
  deleteBeforeReplace?: boolean;
  detailedDiff?: DetailedDiff;
}

/** The config object the host hands to configure(): keys as `<namespace>:<key>`. */
export interface ConfigReader {
  get(key: string): string | undefined;
}

export type Props = Record<string, unknown>;

/** One resource kind: every method the host may call. */
export interface ResourceKind {
  configure(request: { config: ConfigReader }): Promise<void>;
  check(olds: Props, news: Props): Promise<CheckResult<Props>>;
  diff(id: string, olds: Props, news: Props): Promise<DiffResult>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props: Props): Promise<{ id: string; props?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
}

/** True when the value or anything inside it is the preview sentinel. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === 'object') return Object.values(value).some(containsUnknown);
  return false;
}

/** The host cannot marshal undefined, Date or BigInt ("Unexpected struct type"): round-trip JSON. */
export function jsonClean<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Inputs without the host's `__provider` text (never compared, never stored twice). */
export function withoutProvider(props: Props): Props {
  const { __provider: _ignored, ...rest } = props;
  return rest;
}

/**
 * A create/update that changed some zones and then failed: the host turns an Error carrying `id`
 * into ErrorResourceInitFailed, so the engine records the resource with `properties` as its state.
 */
export class PartialApplyError extends Error {
  override name = 'PartialApplyError';
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Props,
    readonly reasons: string[],
  ) {
    super(message);
  }
}
