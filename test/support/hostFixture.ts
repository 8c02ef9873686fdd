/**
 * One Pulumi dynamic-provider host per test file, set up as the engine runs it for a stack: the
 * shims of the kinds the file drives, Configure with the stack's config, started before the file's
 * tests and stopped after them. The files under test/pulumi/ each wrote this setup again.
 *
 * Hooks run as a stack (vitest's default): a file's own beforeAll hooks registered before
 * `useTestHost` run before the host starts (so `config` may name servers they started), and its
 * afterAll hooks registered before it run after the host stopped.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { dynamicUrn, type Props, type PulumiHost, startTestHost, stopTestHost, type TestHost } from './pulumiHost';

/** A resource made by `checkAndCreate`. */
export interface Made {
  type: string;
  urn: string;
  id: string;
  inputs: Props;
  outs: Props;
}

export interface HostFixture {
  /** The running host (calls before the file's beforeAll hooks ran throw). */
  host: PulumiHost;
  /** `__provider` of each kind, filled in when the host starts. */
  shim: Record<string, string>;
  /** What `checkAndCreate` made, oldest first. */
  created: Made[];
  /** Check with the kind's shim, expecting no failures; the checked inputs. */
  check(type: string, urn: string, olds: Props, news: Props): Promise<Props>;
  /** Check as a first `up` does (empty olds), then create; remembered in `created`. */
  checkAndCreate(type: string, name: string, news: Props): Promise<Made>;
}

export interface HostOptions {
  /** Delete what `checkAndCreate` made, newest first (failures ignored), before the host stops. */
  deleteCreated?: boolean;
}

/** A host for this test file's tests, driving `kinds` with the stack config `config()` returns. */
export function useTestHost(
  kinds: string[],
  config: () => Record<string, string>,
  options: HostOptions = {},
): HostFixture {
  let started: TestHost | undefined;
  const running = (): PulumiHost => {
    if (!started) throw new Error('the Pulumi host starts in beforeAll');
    return started.host;
  };
  // A stable stand-in, so a file can take `host` once at its top and call it in its tests.
  const host = new Proxy({} as PulumiHost, {
    get: (_, key) => {
      const value = (running() as unknown as Record<PropertyKey, unknown>)[key];
      return typeof value === 'function' ? value.bind(running()) : value;
    },
  });
  const shim: Record<string, string> = {};
  const created: Made[] = [];
  const check = async (type: string, urn: string, olds: Props, news: Props): Promise<Props> => {
    const checked = await host.check(urn, olds, { __provider: shim[type], ...news });
    expect(checked.failures).toEqual([]);
    return checked.inputs;
  };
  const checkAndCreate = async (type: string, name: string, news: Props): Promise<Made> => {
    const urn = dynamicUrn(type, name);
    const inputs = await check(type, urn, {}, news);
    const result = await host.create(urn, inputs);
    const made = { type, urn, id: result.id, inputs, outs: result.properties };
    created.push(made);
    return made;
  };
  beforeAll(async () => {
    started = await startTestHost(kinds, config());
    Object.assign(shim, started.shim);
  }, 60_000);
  afterAll(async () => {
    if (options.deleteCreated && started)
      for (const r of [...created].reverse()) await host.delete(r.id, r.urn, r.outs).catch(() => undefined);
    await stopTestHost(started);
  });
  return { host, shim, created, check, checkAndCreate };
}
