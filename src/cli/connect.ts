/**
 * How the CLI reaches Temporal: the configured cluster, or the embedded dev server's address (which `npm start`
 * runs; the CLI never starts one itself).
 */
import { Client, Connection } from '@temporalio/client';
import { connectionOptions } from '../config/connection-options';
import type { Config } from '../config/schema';

/** A connected client plus what the CLI prints about where it is. */
export interface CliTemporal {
  client: Client;
  config: Config;
  address: string;
  /** The Web UI link of a workflow, when the embedded dev server is in use; `null` for a cluster. */
  uiLink(workflowId: string): string | null;
  close(): Promise<void>;
}

/**
 * Connects to the configured Temporal frontend.
 * @throws Error naming the address when nothing answers there (is the worker, `npm start`, running?).
 */
export async function connectTemporal(config: Config): Promise<CliTemporal> {
  const dev = config.temporal.address === '';
  const address = dev ? `${config.devServer.ip}:${config.devServer.port}` : config.temporal.address;
  let connection: Connection;
  try {
    const { address: _a, ...rest } = connectionOptions(config, address);
    connection = await Connection.connect({ address, connectTimeout: 5_000, ...rest });
  } catch (err) {
    throw new Error(
      `cannot reach Temporal at ${address}${dev ? " (start it with 'npm start')" : ''}: ${(err as Error).message}`
    );
  }
  const namespace = config.temporal.namespace;
  const host = config.devServer.ip === '0.0.0.0' ? '127.0.0.1' : config.devServer.ip;
  return {
    client: new Client({ connection, namespace }),
    config,
    address,
    uiLink: (workflowId) =>
      dev
        ? `http://${host}:${config.devServer.uiPort}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`
        : null,
    close: () => connection.close(),
  };
}
