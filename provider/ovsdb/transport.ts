/**
 * Opens the byte stream of an endpoint: a unix or TCP socket, a TLS connection verified against
 * the caller's CA, or the caller's own stream opener. Every failure becomes an
 * OvsdbTransportError naming the endpoint; TLS key material never appears in messages.
 */
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import * as tls from 'node:tls';
import { describeEndpoint, type Endpoint } from './endpoint';
import { OvsdbTransportError, OvsdbValueError } from './errors';

/** PEM strings for `ssl:` endpoints (from config or environment; never from topology files). */
export interface TlsMaterial {
  /** Our private key and certificate, presented to the server (ovsdb-server requires them). */
  key: string;
  cert: string;
  /** The CA that signed the server's certificate; the server is verified against it. */
  ca: string;
  /**
   * OVS PKI certificates name no host (ovs-pki puts a type and a date in the CN) and OVS's own
   * clients verify the chain only, so host name checking is off unless asked for.
   */
  verifyHostname?: boolean;
}

export interface OpenOptions {
  tls?: TlsMaterial;
  connectTimeoutMs?: number;
}

function connectSocket(endpoint: Endpoint, options: OpenOptions): { socket: Duplex; ready: string } {
  switch (endpoint.kind) {
    case 'unix':
      return { socket: net.connect({ path: endpoint.path }), ready: 'connect' };
    case 'tcp':
      return { socket: net.connect({ host: endpoint.host, port: endpoint.port }), ready: 'connect' };
    case 'ssl': {
      const material = options.tls;
      if (!material)
        throw new OvsdbValueError(
          'tls',
          describeEndpoint(endpoint),
          'an ssl: endpoint needs TLS material (key, cert, ca)',
        );
      const socket = tls.connect({
        host: endpoint.host,
        port: endpoint.port,
        key: material.key,
        cert: material.cert,
        ca: material.ca,
        rejectUnauthorized: true,
        ...(material.verifyHostname ? {} : { checkServerIdentity: () => undefined }),
      });
      return { socket, ready: 'secureConnect' };
    }
    default:
      throw new Error('stream endpoints are opened by their own opener');
  }
}

function reasonOf(error: NodeJS.ErrnoException): 'refused' | 'unreachable' {
  return error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? 'refused' : 'unreachable';
}

function waitReady(socket: Duplex, ready: string, name: string, timeoutMs: number): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new OvsdbTransportError(name, 'timeout', `connect timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onError = (error: NodeJS.ErrnoException) =>
      fail(new OvsdbTransportError(name, reasonOf(error), `cannot connect: ${error.message}`, { cause: error }));
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('error', onError);
    socket.once(ready, () => {
      clearTimeout(timer);
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

async function openStream(endpoint: Extract<Endpoint, { kind: 'stream' }>, timeoutMs: number): Promise<Duplex> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new OvsdbTransportError(endpoint.describe, 'timeout', `open timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  const opening = endpoint.open();
  try {
    return await Promise.race([opening, timeout]);
  } catch (error) {
    // a stream that opens after we gave up is nobody's: close it
    opening.then(
      (late) => late.destroy(),
      () => undefined,
    );
    if (error instanceof OvsdbTransportError) throw error;
    throw new OvsdbTransportError(endpoint.describe, 'unreachable', `cannot open: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}

/** A connected Duplex to the endpoint, or an OvsdbTransportError. */
export async function openTransport(endpoint: Endpoint, options: OpenOptions = {}): Promise<Duplex> {
  const timeoutMs = options.connectTimeoutMs ?? 10_000;
  if (endpoint.kind === 'stream') return openStream(endpoint, timeoutMs);
  const { socket, ready } = connectSocket(endpoint, options);
  return waitReady(socket, ready, describeEndpoint(endpoint), timeoutMs);
}
