/**
 * A test file's Northbound: a fresh real ovsdb-server (ovsdbServer.ts) and a client connected to
 * it, started before the file's tests and stopped after them.
 */
import { OvsdbClient } from '../../provider/ovsdb/client';
import { type OvsdbServer, startOvsdbServer } from './ovsdbServer';

export interface NbUnderTest {
  server: OvsdbServer;
  client: OvsdbClient;
}

export async function startNbUnderTest(): Promise<NbUnderTest> {
  const server = await startOvsdbServer();
  try {
    return { server, client: await OvsdbClient.connect(server.unix) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Closes the client and stops the server, either absent when starting them failed. */
export async function stopNbUnderTest({ server, client }: Partial<NbUnderTest>): Promise<void> {
  client?.close();
  await server?.stop();
}
