/**
 * Collecting a router's or switch's children while rendering, then writing the parent row with
 * its reference columns. Renderer files add children per node; the parent is built once.
 */
import { refs, row, type Columns, type DesiredRow } from './rows';

export class RouterParts {
  readonly ports: DesiredRow[] = [];
  readonly routes: DesiredRow[] = [];
  readonly policies: DesiredRow[] = [];
  readonly nats: DesiredRow[] = [];

  /** The router row plus every child, children deduplicated by identity. */
  build(columns: Columns): DesiredRow[] {
    const router = row('Logical_Router', {
      ...columns,
      ports: unique(refs(this.ports)),
      static_routes: unique(refs(this.routes)),
      policies: unique(refs(this.policies)),
      nat: unique(refs(this.nats)),
    });
    return [router, ...this.ports, ...this.routes, ...this.policies, ...this.nats];
  }
}

export class SwitchParts {
  readonly ports: DesiredRow[] = [];
  readonly acls: DesiredRow[] = [];

  build(columns: Columns): DesiredRow[] {
    const sw = row('Logical_Switch', { ...columns, ports: unique(refs(this.ports)), acls: unique(refs(this.acls)) });
    return [sw, ...this.ports, ...this.acls];
  }
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)].sort();
}
