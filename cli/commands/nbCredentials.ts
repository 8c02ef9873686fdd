/**
 * How the file commands reach a Northbound beyond the lab, ovn-nbctl's way: `ssl:` endpoints with
 * `--private-key`, `--certificate` and `--ca-cert` (PEM files); `ssh://user@host[:port]/unix:/path`
 * endpoints tunnelled with an SSH key file (`--ssh-key`) or the agent of SSH_AUTH_SOCK, the host
 * key pinned by `--known-hosts FILE` or `--ssh-fingerprint SHA256:...`; and OVN_NB_DB as the
 * endpoint when neither `--nb` nor the file (nor `--lab`) names one. Files are read here; their
 * paths may appear in errors, their contents never do.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { NbOptions } from '../../provider/runtime/cli';
import { CliError, ExitCode } from '../contract';

export interface CredentialOptions {
  privateKey?: string;
  certificate?: string;
  caCert?: string;
  sshKey?: string;
  knownHosts?: string;
  sshFingerprint?: string;
}

export function withCredentialOptions(command: Command): Command {
  return command
    .option('--private-key <file>', 'ssl: our private key (PEM), as ovn-nbctl')
    .option('--certificate <file>', 'ssl: our certificate (PEM), as ovn-nbctl')
    .option('--ca-cert <file>', "ssl: the CA that signed the server's certificate (PEM), as ovn-nbctl")
    .option('--ssh-key <file>', 'ssh://: the private key (default: the agent of SSH_AUTH_SOCK)')
    .option('--known-hosts <file>', "ssh://: known_hosts lines that pin the host's key")
    .option('--ssh-fingerprint <SHA256:...>', "ssh://: the host key's OpenSSH fingerprint, as the pin");
}

/** OVN_NB_DB, ovn-nbctl's default endpoint, when set. */
export function defaultEndpoint(): string | undefined {
  return process.env.OVN_NB_DB || undefined;
}

const badInput = (flag: string, message: string) => new CliError(ExitCode.badInput, message, { path: flag });

function readFlagFile(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw badInput(flag, `cannot read ${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
}

/** What each key or certificate flag's file must hold: its PEM block label, and the words for it. */
const PEM_KINDS: Record<string, { label: RegExp; what: string }> = {
  '--private-key': { label: /^[A-Z0-9 ]*PRIVATE KEY$/, what: 'a private key' },
  '--ssh-key': { label: /^[A-Z0-9 ]*PRIVATE KEY$/, what: 'a private key' },
  '--certificate': { label: /^CERTIFICATE$/, what: 'a certificate' },
  '--ca-cert': { label: /^CERTIFICATE$/, what: 'a CA certificate' },
};

/**
 * The PEM file of a key or certificate flag, refused naming the flag when it holds something else
 * (a certificate where a key is expected fails later only with OpenSSL's codes). Only the PEM
 * labels are named, never the content.
 */
function pemOf(flag: string, file: string, text: string): string {
  const kind = PEM_KINDS[flag]!;
  const labels = [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----/g)].map((m) => m[1]!);
  if (labels.some((l) => kind.label.test(l))) return text;
  // an SSH key need not be PEM (PuTTY's, for one): only a PEM block of another kind is refused here
  if (flag === '--ssh-key' && labels.length === 0) return text;
  const found = labels.length > 0 ? `a PEM ${labels[0]!.toLowerCase()}` : 'no PEM block';
  throw badInput(flag, `${flag} ${file} holds ${found}, not ${kind.what}`);
}

const readPem = (flag: string, file: string): string => pemOf(flag, file, readFlagFile(flag, file));

function tlsOf(endpoint: string, options: CredentialOptions): NbOptions['tls'] {
  const flags = {
    '--private-key': options.privateKey,
    '--certificate': options.certificate,
    '--ca-cert': options.caCert,
  };
  const missing = Object.entries(flags).filter(([, file]) => file === undefined);
  if (missing.length > 0)
    throw badInput(
      missing[0]![0],
      `${endpoint} is an ssl: endpoint: give --private-key, --certificate and --ca-cert (missing: ${missing.map(([f]) => f).join(', ')})`,
    );
  return {
    key: readPem('--private-key', options.privateKey!),
    cert: readPem('--certificate', options.certificate!),
    ca: readPem('--ca-cert', options.caCert!),
  };
}

function hostKeyOf(endpoint: string, options: CredentialOptions): NonNullable<NbOptions['ssh']>['hostKey'] {
  if (options.knownHosts !== undefined) return { knownHosts: readFlagFile('--known-hosts', options.knownHosts) };
  const fingerprint = options.sshFingerprint;
  if (fingerprint === undefined)
    throw badInput(
      '--known-hosts',
      `${endpoint} is tunnelled through SSH: pin its host key with --known-hosts FILE or --ssh-fingerprint SHA256:...`,
    );
  if (!/^SHA256:[A-Za-z0-9+/]{43}=?$/.test(fingerprint))
    throw badInput('--ssh-fingerprint', `--ssh-fingerprint "${fingerprint}" is not an OpenSSH SHA256:... fingerprint`);
  return { fingerprint };
}

function sshOf(endpoint: string, options: CredentialOptions): NbOptions['ssh'] {
  const hostKey = hostKeyOf(endpoint, options);
  if (options.sshKey !== undefined) {
    readPem('--ssh-key', options.sshKey);
    return { keyPath: options.sshKey, hostKey };
  }
  const agent = process.env.SSH_AUTH_SOCK;
  if (!agent)
    throw badInput(
      '--ssh-key',
      `${endpoint} is tunnelled through SSH: give --ssh-key FILE or run an SSH agent (SSH_AUTH_SOCK)`,
    );
  return { agent, hostKey };
}

/** The connection options an endpoint needs from the flags (exit 3 when they are missing or unreadable). */
export function nbOptionsFor(endpoint: string, options: CredentialOptions): NbOptions {
  if (endpoint.startsWith('ssh://')) return { ssh: sshOf(endpoint, options) };
  if (endpoint.split(',').some((remote) => remote.trim().startsWith('ssl:'))) return { tls: tlsOf(endpoint, options) };
  return {};
}
