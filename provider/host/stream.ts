/**
 * OVSDB over SSH: an OVSDB endpoint of kind `stream` whose every `open()` forwards a fresh stream
 * to a unix socket on the host (e.g. a node's Open_vSwitch db.sock) over the runner's connection.
 */
import type { StreamEndpoint } from '../ovsdb/endpoint';
import type { SshHostRunner } from './ssh';

export function openUnixSocketStream(runner: SshHostRunner, socketPath: string): StreamEndpoint {
  return {
    kind: 'stream',
    describe: `ssh://${runner.describe}/unix:${socketPath}`,
    open: () => runner.forwardUnixSocket(socketPath),
  };
}
