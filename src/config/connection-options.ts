import { readFileSync } from 'node:fs';
import type { NativeConnectionOptions } from '@temporalio/worker';
import type { Config } from './schema';

/**
 * Connection options for a Temporal frontend from the configuration: TLS (server CA, mTLS client pair, server name)
 * and a Temporal Cloud API key read from the environment variable the configuration names.
 * @returns options for `NativeConnection.connect` (the client's `Connection.connect` takes the same fields).
 * @throws Error naming the file when a configured certificate or key cannot be read.
 */
export function connectionOptions(
  config: Config,
  address: string,
  env: NodeJS.ProcessEnv = process.env
): NativeConnectionOptions {
  const t = config.temporal;
  const apiKey = env[t.apiKeyEnv] || undefined;
  const read = (path: string, what: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (err) {
      throw new Error(`cannot read ${what} at ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  };
  const mtls = t.tlsClientCertPath !== '' || t.tlsClientKeyPath !== '';
  if (mtls && (t.tlsClientCertPath === '' || t.tlsClientKeyPath === '')) {
    throw new Error('temporal.tlsClientCertPath and temporal.tlsClientKeyPath must be set together');
  }
  const useTls = t.tls || mtls || apiKey !== undefined || t.tlsServerRootCaCertPath !== '';
  return {
    address,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(useTls
      ? {
          tls: {
            ...(t.tlsServerName !== '' ? { serverNameOverride: t.tlsServerName } : {}),
            ...(t.tlsServerRootCaCertPath !== ''
              ? { serverRootCACertificate: read(t.tlsServerRootCaCertPath, 'the server CA certificate') }
              : {}),
            ...(mtls
              ? {
                  clientCertPair: {
                    crt: read(t.tlsClientCertPath, 'the client certificate'),
                    key: read(t.tlsClientKeyPath, 'the client key'),
                  },
                }
              : {}),
          },
        }
      : {}),
  };
}
