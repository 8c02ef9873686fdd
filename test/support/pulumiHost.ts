/**
 * The engine's side of a dynamic provider, for tests: takes each kind's `__provider` text as the
 * compiled components register it, spawns `@pulumi/pulumi`'s dynamic-provider host (the process
 * the engine runs as `pulumi-resource-pulumi-nodejs`) in a consumer project directory, and drives
 * it over gRPC with Configure, Check, Diff, Create, Read, Update and Delete as the engine does.
 * The host loads the providers from the tsc-compiled dist, through the consumer's node_modules.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot, requireFreshDist } from './dist';
import { cpuSecondsOf } from './processCpu';

export { repoRoot, requireFreshDist };

const load = createRequire(join(repoRoot, 'package.json'));
const pulumiDir = dirname(load.resolve('@pulumi/pulumi/package.json'));
const fromPulumi = createRequire(join(pulumiDir, 'package.json'));
const grpc: any = fromPulumi('@grpc/grpc-js');
const services: any = fromPulumi('./proto/provider_grpc_pb.js');
const messages: any = fromPulumi('./proto/provider_pb.js');
const { Struct }: any = fromPulumi('google-protobuf/google/protobuf/struct_pb.js');

export type Props = Record<string, unknown>;

export interface DiffReply {
  /** 0 unknown, 1 none, 2 some (DiffResponse.DiffChanges). */
  changes: number;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /**
   * DiffResponse.detailedDiff by key, with its PropertyDiff kind (0 add .. 5 updateReplace); absent
   * without hasDetailedDiff.
   */
  detailedDiff?: Record<string, number>;
}

/** The `__provider` text of a kind as the compiled components register it (dist/provider/shim.js). */
export function providerText(kind: string): string {
  const text = (load(join(repoRoot, 'dist', 'provider', 'shim.js')).shims as Record<string, string>)[kind];
  if (!text) throw new Error(`dist/provider/shim.js has no shim ${kind} (run npm run build)`);
  return text;
}

/** A temporary Pulumi project directory whose node_modules/ovnk-pulumi is this repository. */
export function linkedConsumer(): { dir: string; remove: () => void } {
  requireFreshDist();
  const dir = mkdtempSync(join(tmpdir(), 'ovnk-consumer-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repoRoot, join(dir, 'node_modules', 'ovnk-pulumi'), 'dir');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const struct = (value: Props) => Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));

function detailedDiffOf(reply: any): Record<string, number> | undefined {
  if (!reply.getHasdetaileddiff()) return undefined;
  const out: Record<string, number> = {};
  reply.getDetaileddiffMap().forEach((v: any, k: string) => (out[k] = v.getKind()));
  return out;
}

/** What starting the host may cost: it loads @pulumi/pulumi and gRPC in 0.7 s of CPU here (3.7 s wall at load 21). */
const HOST_START_CPU_SECONDS = 20;

export class PulumiHost {
  private constructor(
    private readonly child: ChildProcess,
    private readonly client: any,
    readonly output: string[],
  ) {}

  /** The host process's id (benchmarks read its CPU time). */
  get pid(): number {
    return this.child.pid!;
  }

  /** Starts the host with `cwd` as the project directory (where `require("ovnk-pulumi/runtime")` resolves). */
  static async start(cwd: string, project = 'ovnk-pulumi'): Promise<PulumiHost> {
    const host = join(pulumiDir, 'cmd', 'dynamic-provider', 'index.js');
    // setpriv execs the host with a parent-death signal: a test process that dies (a timeout's
    // SIGKILL, a crash) takes its host with it instead of leaving it to idle for the rest of the run
    const child = spawn('setpriv', ['--pdeathsig', 'TERM', process.execPath, host, '127.0.0.1:0'], {
      cwd,
      env: { ...process.env, PULUMI_NODEJS_PROJECT: project },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
    const port = await new Promise<string>((resolve, reject) => {
      let buffered = '';
      child.stdout!.on('data', (d: Buffer) => {
        buffered += d.toString();
        const line = buffered.split('\n');
        if (line.length > 1) resolve(line[0]!.trim());
        else return;
        output.push(line.slice(1).join('\n'));
      });
      // its budget is CPU time, which a busy machine does not stretch as it stretches wall time
      const watch = setInterval(() => {
        if (cpuSecondsOf(child.pid!) < HOST_START_CPU_SECONDS) return;
        clearInterval(watch);
        reject(new Error(`the dynamic-provider host did not print its port within ${HOST_START_CPU_SECONDS} s of CPU`));
      }, 250);
      child.stdout!.once('data', () => clearInterval(watch));
      child.once('exit', (code) => {
        clearInterval(watch);
        reject(new Error(`the dynamic-provider host exited (${code}): ${output.join('')}`));
      });
    });
    const client = new services.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    return new PulumiHost(child, client, output);
  }

  private call<T>(method: string, request: unknown): Promise<T> {
    return new Promise((resolve, reject) =>
      this.client[method](request, (error: Error | null, reply: T) => (error ? reject(error) : resolve(reply))),
    );
  }

  /** Configure as the engine sends it: the whole stack config, keys `namespace:key`. */
  async configure(config: Record<string, string>): Promise<void> {
    const request = new messages.ConfigureRequest();
    request.setArgs(struct(config));
    await this.call('configure', request);
  }

  async check(
    urn: string,
    olds: Props,
    news: Props,
  ): Promise<{ inputs: Props; failures: { property: string; reason: string }[] }> {
    const request = new messages.CheckRequest();
    request.setUrn(urn);
    request.setOlds(struct(olds));
    request.setNews(struct(news));
    const reply: any = await this.call('check', request);
    return {
      inputs: reply.getInputs().toJavaScript(),
      failures: reply.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  async diff(id: string, urn: string, olds: Props, news: Props): Promise<DiffReply> {
    const request = new messages.DiffRequest();
    request.setId(id);
    request.setUrn(urn);
    request.setOlds(struct(olds));
    request.setNews(struct(news));
    const reply: any = await this.call('diff', request);
    return {
      changes: reply.getChanges(),
      replaces: reply.getReplacesList(),
      deleteBeforeReplace: reply.getDeletebeforereplace(),
      detailedDiff: detailedDiffOf(reply),
    };
  }

  async create(urn: string, properties: Props): Promise<{ id: string; properties: Props }> {
    const request = new messages.CreateRequest();
    request.setUrn(urn);
    request.setProperties(struct(properties));
    const reply: any = await this.call('create', request);
    return { id: reply.getId(), properties: reply.getProperties().toJavaScript() };
  }

  async read(id: string, urn: string, properties: Props): Promise<{ id: string; properties: Props }> {
    const request = new messages.ReadRequest();
    request.setId(id);
    request.setUrn(urn);
    request.setProperties(struct(properties));
    const reply: any = await this.call('read', request);
    return { id: reply.getId(), properties: reply.getProperties()?.toJavaScript() ?? {} };
  }

  async update(id: string, urn: string, olds: Props, news: Props): Promise<{ properties: Props }> {
    const request = new messages.UpdateRequest();
    request.setId(id);
    request.setUrn(urn);
    request.setOlds(struct(olds));
    request.setNews(struct(news));
    const reply: any = await this.call('update', request);
    return { properties: reply.getProperties().toJavaScript() };
  }

  async delete(id: string, urn: string, properties: Props): Promise<void> {
    const request = new messages.DeleteRequest();
    request.setId(id);
    request.setUrn(urn);
    request.setProperties(struct(properties));
    await this.call('delete', request);
  }

  /** Closes the client and ends the host (our child; node reaps it). */
  async stop(): Promise<void> {
    this.client.close();
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** `urn:pulumi:<stack>::<project>::pulumi-nodejs:dynamic/ovnk:<Type>::<name>`. */
export function dynamicUrn(type: string, name: string, stack = 'test', project = 'ovnk-pulumi'): string {
  return `urn:pulumi:${stack}::${project}::pulumi-nodejs:dynamic/ovnk:${type}::${name}`;
}

/** A host started in a linked consumer project, with the named kinds' `__provider` texts. */
export interface TestHost {
  host: PulumiHost;
  shim: Record<string, string>;
  consumer: { dir: string; remove: () => void };
}

/** Start a host for a test file: consumer project, shims of `kinds`, Configure with `config`. */
export async function startTestHost(kinds: string[], config: Record<string, string>): Promise<TestHost> {
  const consumer = linkedConsumer();
  const host = await PulumiHost.start(consumer.dir);
  const shim: Record<string, string> = {};
  for (const kind of kinds) shim[kind] = providerText(kind);
  await host.configure(config);
  return { host, shim, consumer };
}

export async function stopTestHost(test: TestHost | undefined): Promise<void> {
  await test?.host.stop();
  test?.consumer.remove();
}
