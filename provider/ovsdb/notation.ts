/**
 * RFC 7047 wire vocabulary (section 5.1 notation, section 5.2 operations), types only.
 * The codec (codec.ts) converts between these wire forms and the plain values rows use.
 * This layer knows nothing of OVN.
 */

export type Uuid = string;

/** An atom on the wire: integer, real, boolean, string, or a uuid / named-uuid pair. */
export type WireAtom = number | boolean | string | ['uuid', Uuid] | ['named-uuid', string];
export type WireSet = WireAtom | ['set', WireAtom[]];
export type WireMap = ['map', [WireAtom, WireAtom][]];
export type WireValue = WireAtom | WireSet | WireMap;
export type WireRow = Record<string, WireValue>;

export type ConditionFunction = '<' | '<=' | '==' | '!=' | '>=' | '>' | 'includes' | 'excludes';
export type Condition = [column: string, fn: ConditionFunction, value: WireValue];

export type Mutator = '+=' | '-=' | '*=' | '/=' | '%=' | 'insert' | 'delete';
export type Mutation = [column: string, mutator: Mutator, value: WireValue];

export type Operation =
  | { op: 'insert'; table: string; row: WireRow; 'uuid-name'?: string; uuid?: Uuid }
  | { op: 'select'; table: string; where: Condition[]; columns?: string[] }
  | { op: 'update'; table: string; where: Condition[]; row: WireRow }
  | { op: 'mutate'; table: string; where: Condition[]; mutations: Mutation[] }
  | { op: 'delete'; table: string; where: Condition[] }
  | {
      op: 'wait';
      table: string;
      where: Condition[];
      columns: string[];
      until: '==' | '!=';
      rows: WireRow[];
      timeout?: number;
    }
  | { op: 'commit'; durable: boolean }
  | { op: 'abort' }
  | { op: 'comment'; comment: string }
  | { op: 'assert'; lock: string };

/** One element of a transact result (RFC 7047 section 4.1.3). */
export interface OperationResult {
  uuid?: ['uuid', Uuid];
  rows?: WireRow[];
  count?: number;
  error?: string;
  details?: string;
}
