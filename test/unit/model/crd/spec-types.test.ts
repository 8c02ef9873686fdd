/**
 * The object types' specs come from upstream's CRD schemas (provider/model/crd/generated/specTypes.ts,
 * rendered by `npm run generate`; generate.test.ts checks it against the pinned CRDs): a strict
 * program that writes a CUDN or a connect as a user would gets upstream's field names, types and
 * enums checked, and the descriptions as doc comments.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../support/dist';

const program = (body: string) => `
import type { ClusterNetworkConnectObject, ClusterUserDefinedNetworkObject } from ${JSON.stringify(join(repoRoot, 'components'))};
${body}
`;

const good = `
export const blue: ClusterUserDefinedNetworkObject = {
  apiVersion: 'k8s.ovn.org/v1', kind: 'ClusterUserDefinedNetwork', metadata: { name: 'blue' },
  spec: { namespaceSelector: { matchLabels: { tenant: 'blue' } },
    network: { topology: 'Layer3', layer3: { role: 'Primary', subnets: [{ cidr: '103.103.0.0/16', hostSubnet: 24 }] } } },
};
export const connect: ClusterNetworkConnectObject = {
  apiVersion: 'k8s.ovn.org/v1', kind: 'ClusterNetworkConnect', metadata: { name: 'c' },
  spec: { networkSelectors: [{ networkSelectionType: 'PrimaryUserDefinedNetworks', primaryUserDefinedNetworkSelector: { namespaceSelector: {} } }],
    connectSubnets: [{ cidr: '192.168.0.0/16', networkPrefix: 24 }], connectivity: ['PodNetwork'] },
};
`;

/** The type errors of each program, checked strictly against the components' sources. */
function typeErrors(sources: string[]): string[][] {
  const dir = mkdtempSync(join(tmpdir(), 'ovnk-spec-types-'));
  try {
    const files = sources.map((source, i) => {
      const file = join(dir, `program${i}.ts`);
      writeFileSync(file, source);
      return file;
    });
    const options = {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      esModuleInterop: true,
    };
    const compiled = ts.createProgram(files, options);
    return files.map((f) =>
      ts
        .getPreEmitDiagnostics(compiled, compiled.getSourceFile(f))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the object types' specs, from upstream's CRDs", () => {
  it("accept upstream's fields and refuse a wrong type, a misspelt enum value and an unknown field", () => {
    const [ok, wrongType, misspelt, unknown] = typeErrors([
      program(good),
      program(good.replace('hostSubnet: 24', "hostSubnet: '24'")),
      program(good.replace("'PrimaryUserDefinedNetworks'", "'PrimaryUserDefinedNetwork'")),
      program(good.replace('hostSubnet: 24', 'hostSubnet: 24, hostSubnets: 24')),
    ]);
    expect(ok, ok!.join('\n')).toEqual([]);
    expect(wrongType!.join('\n')).toContain("Type 'string' is not assignable to type 'number'");
    expect(misspelt!.join('\n')).toContain('"PrimaryUserDefinedNetwork"');
    expect(unknown!.join('\n')).toContain("'hostSubnets' does not exist");
  }, 120_000);

  it("carry the CRDs' descriptions as doc comments", () => {
    const types = readFileSync(join(repoRoot, 'provider', 'model', 'crd', 'generated', 'specTypes.ts'), 'utf8');
    expect(types).toMatch(
      /\* HostSubnet specifies the subnet size for every node\.\n[\s\S]*?\n\s*hostSubnet\?: number;/,
    );
    expect(types).toMatch(
      /\* networkSelectionType determines the type of networks selected\.\n[\s\S]*?\n\s*networkSelectionType: "DefaultNetwork" \| "ClusterUserDefinedNetworks"/,
    );
  });
});
