/**
 * The layers of ARCHITECTURE.md ("Layers" and "Arrows") as checks, run by `npm run lint`:
 * - an import between layers follows one of the arrows below (a layer's own files are always fine;
 *   types of the model may be imported anywhere, its values only by the layers with an arrow to it);
 * - the pure layers import no node I/O module and no ssh;
 * - no cycles, type-only imports included (`import type` cycles are cycles of the design too).
 * test/ and bench/ reach into every layer on purpose: only the cycle rule applies to them.
 */
const layers = {
  stacks: '^stacks/',
  components: '^components/',
  cli: '^cli/',
  lab: '^lab/',
  oracle: '^oracle/',
  shim: '^provider/shim[.]ts$',
  runtime: '^provider/runtime/',
  connect: '^provider/connect/',
  topology: '^provider/topology/',
  uplink: '^provider/uplink/',
  alloc: '^provider/alloc/',
  model: '^provider/model/',
  nb: '^provider/nb/',
  ovsdb: '^provider/ovsdb/',
  host: '^provider/host/',
};

// Each layer -> the layers it may import from (ARCHITECTURE.md "Arrows"). The runtime's arrow to
// the model is the data flow's first step (it parses the documents it plans); the lab reaches its
// simulated nodes through the host layer's SSH runner. The oracle (oracle/: upstream's controllers
// run on our plans, README "Upstream's controllers as the oracle") is a tool beside the provider:
// it plans through the runtime and compares rows with nb's natural keys, and no provider layer
// imports it (tests do: they read its accepted list and its plans).
const arrows = {
  stacks: ['components'],
  components: ['runtime', 'shim'],
  cli: ['runtime', 'lab'],
  lab: ['host'],
  oracle: ['runtime', 'nb'],
  shim: [],
  runtime: ['connect', 'topology', 'uplink', 'alloc', 'model', 'nb', 'host', 'ovsdb'],
  connect: ['topology', 'alloc', 'model', 'nb'],
  topology: ['alloc', 'model', 'nb'],
  uplink: ['model'],
  alloc: ['model'],
  model: [],
  nb: ['ovsdb'],
  host: ['ovsdb'],
  ovsdb: [],
};

const pure = ['model', 'alloc', 'topology', 'connect', 'uplink'];
const nodeIo = ['fs', 'net', 'tls', 'dgram', 'dns', 'http', 'https', 'http2', 'child_process', 'cluster'];
const moreIo = ['worker_threads', 'readline', 'os', 'process', 'inspector', 'repl', 'tty', 'v8', 'vm'];

const anyOf = (names) => names.map((name) => layers[name]);
const list = (names) => (names.length === 0 ? 'nothing' : names.join(', '));

const arrowRules = Object.entries(arrows).map(([layer, allowed]) => ({
  name: `arrows-${layer}`,
  severity: 'error',
  comment: `${layer} imports from ${list(allowed)} only (and types of the model): ARCHITECTURE.md "Arrows"`,
  from: { path: layers[layer] },
  to: { path: Object.values(layers), pathNot: anyOf([layer, ...allowed, 'model']) },
}));

const withoutModelArrow = Object.keys(arrows).filter((layer) => layer !== 'model' && !arrows[layer].includes('model'));

// Model modules some layers without the model arrow may take values from: the vocabulary every
// layer shares, spelled once. nb marks and reads rows by the external_ids keys of
// model/externalIds.ts (uplink's host plans use the same keys and may not import nb); the lab
// builds the zone layouts of model/zones.ts (their list, default and central zone name).
const sharedVocabulary = {
  nb: ['^provider/model/externalIds[.]ts$'],
  lab: ['^provider/model/zones[.]ts$'],
};

module.exports = {
  forbidden: [
    ...arrowRules,
    ...withoutModelArrow.map((layer) => ({
      name: 'model-values',
      severity: 'error',
      comment: `${layer} imports only types from the model (\`import type\`)${
        sharedVocabulary[layer] ? `, and values of ${sharedVocabulary[layer].join(', ')} only` : ''
      }; its other values come through the runtime`,
      from: { path: layers[layer] },
      to: { path: layers.model, pathNot: sharedVocabulary[layer] ?? [], dependencyTypesNot: ['type-only'] },
    })),
    {
      name: 'pure-no-io',
      severity: 'error',
      comment: `the pure layers (${list(pure)}) take plain data and return plain data: no node I/O module, no ssh`,
      from: { path: anyOf(pure) },
      to: {
        path: [`^(node:)?(${[...nodeIo, ...moreIo].join('|')})(/|$)`, '(^|/)node_modules/ssh2/'],
      },
    },
    {
      name: 'provider-layer-known',
      severity: 'error',
      comment: 'every provider file belongs to a layer of ARCHITECTURE.md (add a new layer there and here)',
      from: { path: '^provider/', pathNot: Object.values(layers) },
      to: {},
    },
    {
      name: 'provider-not-oracle',
      severity: 'error',
      comment: 'the oracle is a development tool beside the provider: nothing under provider/ imports oracle/',
      from: { path: '^provider/' },
      to: { path: layers.oracle },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'no import cycles, type-only imports included: split the shared shape into its own module',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
};
