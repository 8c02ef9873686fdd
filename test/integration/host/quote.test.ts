import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { argvProblem, fingerprintOf, knownKeysFor, quoteArgv, verifyHostKey } from '../../../provider/host';

/** What a real POSIX shell makes of the quoted words: printf each back, NUL-terminated. */
function throughShell(words: string[]): string[] {
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${quoteArgv(words)}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('argv quoting for the remote shell', () => {
  it('gives a real shell back exactly the words it was given, whatever they contain', () => {
    const word = fc.string({
      unit: fc.constantFrom('a', ' ', "'", '"', ';', '$', '`', '\\', '*', '\n', '|', '&', '(', ')', '#', '~', 'é'),
    });
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), (words) => {
        expect(throughShell(words)).toEqual(words);
      }),
      { numRuns: 150 },
    );
  });

  it('leaves plain words bare and quotes the rest', () => {
    expect(quoteArgv(['ovs-vsctl', '--db=unix:/run/db.sock', 'a b', "it's", ''])).toBe(
      `ovs-vsctl --db=unix:/run/db.sock 'a b' 'it'\\''s' ''`,
    );
  });

  it('names the element of an argv it cannot carry', () => {
    expect(argvProblem([])).toEqual({ field: 'argv', reason: 'must be a non-empty list of strings' });
    expect(argvProblem(['echo', 'a\0b'])?.field).toBe('argv[1]');
    expect(argvProblem(['echo', 3])?.field).toBe('argv[1]');
    expect(argvProblem([''])?.field).toBe('argv[0]');
    expect(argvProblem(['echo', 'fine'])).toBeUndefined();
  });
});

describe('host-key pins', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-hostkey-'));
  const keyFile = path.join(dir, 'k');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile]);
  const [type, base64] = readFileSync(`${keyFile}.pub`, 'utf8').trim().split(' ');
  const blob = Buffer.from(base64, 'base64');

  it("computes OpenSSH's own SHA-256 fingerprint", () => {
    const openssh = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${keyFile}.pub`], {
      encoding: 'utf8',
    }).split(' ')[1];
    expect(fingerprintOf(blob)).toBe(openssh);
  });

  it('matches known_hosts lines by host, by [host]:port and hashed by ssh-keygen -H', () => {
    const known = path.join(dir, 'known_hosts');
    writeFileSync(known, `10.0.0.1 ${type} ${base64}\n[10.0.0.2]:2222 ${type} ${base64}\n`);
    expect(knownKeysFor(readFileSync(known, 'utf8'), '10.0.0.1', 22)).toEqual([base64]);
    expect(knownKeysFor(readFileSync(known, 'utf8'), '10.0.0.2', 2222)).toEqual([base64]);
    expect(knownKeysFor(readFileSync(known, 'utf8'), '10.0.0.2', 22)).toEqual([]);
    execFileSync('ssh-keygen', ['-H', '-f', known], { stdio: 'ignore' });
    const hashed = readFileSync(known, 'utf8');
    expect(hashed).not.toContain('10.0.0.1');
    expect(knownKeysFor(hashed, '10.0.0.1', 22)).toEqual([base64]);
    expect(knownKeysFor(hashed, '10.0.0.3', 22)).toEqual([]);
  });

  it('calls a key without a pin unknown and a key that contradicts its pin changed', () => {
    expect(verifyHostKey(blob, undefined, 'h', 22)).toEqual({ ok: false, kind: 'unknown' });
    expect(verifyHostKey(blob, { fingerprint: fingerprintOf(blob) }, 'h', 22)).toEqual({ ok: true });
    expect(verifyHostKey(blob, { fingerprint: fingerprintOf(blob).slice(7) }, 'h', 22)).toEqual({ ok: true });
    expect(verifyHostKey(Buffer.from('other'), { fingerprint: fingerprintOf(blob) }, 'h', 22)).toMatchObject({
      ok: false,
      kind: 'changed',
    });
    expect(verifyHostKey(blob, { knownHosts: `other ${type} ${base64}` }, 'h', 22)).toEqual({
      ok: false,
      kind: 'unknown',
    });
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
});
