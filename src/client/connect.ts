/**
 * `connectClient()`: a Temporal `Client` configured exactly as the worker is (address, namespace, TLS, API key, and
 * the data converter, so encrypted payloads are encrypted and decrypted on both sides). Pass it to
 * `ConversationClient`.
 */
import { Client, Connection } from '@temporalio/client';
import { dataConverterFromConfig } from '../codec/data-converter';
import { connectionOptions } from '../config/connection-options';
import { loadConfig } from '../config/load-config';
import type { Config } from '../config/schema';

/** Options of {@link connectClient}. */
export interface ConnectClientOptions {
  /** @default loadConfig() (temporal.yaml and the environment) */
  config?: Config;
  /** The frontend to connect to. @default config.temporal.address, or the embedded dev server's ip:port */
  address?: string;
  /** Environment for API keys and codec keys. @default process.env */
  env?: NodeJS.ProcessEnv;
}

/**
 * Connects a client the way the worker is configured.
 * @returns the client (close its `connection` when done).
 * @throws ConfigError / CodecConfigError on bad configuration; the connection's error when the server is unreachable.
 */
export async function connectClient(options: ConnectClientOptions = {}): Promise<Client> {
  const config = options.config ?? loadConfig();
  const env = options.env ?? process.env;
  const address =
    options.address ??
    (config.temporal.address !== '' ? config.temporal.address : `${config.devServer.ip}:${config.devServer.port}`);
  const connection = await Connection.connect(connectionOptions(config, address, env));
  return new Client({
    connection,
    namespace: config.temporal.namespace,
    dataConverter: dataConverterFromConfig(config, env),
  });
}
