import { codecFromConfig } from '../codec/data-converter';
import { startCodecServer } from '../codec/codec-server';
import { loadConfig } from '../config/load-config';
import { CliUsageError, parseFlags, type CliIO } from './io';

/**
 * `durable-compaction codec-server [--ip A] [--port N] [--origins O1,O2]`: serves `/encode` and `/decode` with the
 * configured keys (temporal.yaml `codec:`; flags override) for the Temporal UI and `temporal --codec-endpoint`, until
 * SIGINT or SIGTERM. Prints the endpoint URL on its first line.
 * @returns 0 after a signal stops it.
 * @throws CliUsageError on a bad flag; CodecConfigError when no keys are configured.
 */
export async function runCodecServer(args: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(args, ['ip', 'port', 'origins']);
  if (positional.length > 0) throw new CliUsageError(`unexpected argument ${positional[0]}`);
  const config = loadConfig();
  const port = flags.has('port') ? Number(flags.get('port')) : config.codec.serverPort;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliUsageError('--port must be 0..65535');
  const origins = (flags.get('origins') ?? config.codec.serverOrigins)
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  const server = await startCodecServer({
    codec: codecFromConfig(config.codec),
    host: flags.get('ip') ?? config.codec.serverIp,
    port,
    origins,
  });
  io.stdout(`codec server listening on ${server.url} (CORS origins: ${origins.join(', ') || 'none'})`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}
