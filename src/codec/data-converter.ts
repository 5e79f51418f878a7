/**
 * The one data-converter factory every Temporal client and worker of the project uses (the worker process, the
 * `ConversationClient`'s `Client`, the command line, the tests), so they always agree on whether and how payloads are
 * encrypted. Encryption is off by default; turned on by `codec.encrypt` (or `DC_CODEC_ENCRYPT=true`) with keys from
 * the environment variable `codec.keysEnv` names.
 */
import type { DataConverter } from '@temporalio/common';
import type { Config } from '../config/schema';
import { AesGcmPayloadCodec } from './aes-gcm-codec';
import { readCodecKeys } from '../config/encryption-keys';

/** Where the encrypting failure converter lives (workflow bundles and clients load it by path). */
export const FAILURE_CONVERTER_PATH = require.resolve('./failure-converter');

/**
 * The codec the configuration asks for, whether or not encryption is on (the codec server decrypts regardless).
 * @returns the AES-256-GCM codec with the configured keys.
 * @throws CodecConfigError when the keys are missing or malformed (the message names the variable, never a key).
 */
export function codecFromConfig(codec: Config['codec'], env: NodeJS.ProcessEnv = process.env): AesGcmPayloadCodec {
  return new AesGcmPayloadCodec(readCodecKeys(codec.keysEnv, codec.keyId, env));
}

/**
 * The data converter for `Client`, `Worker.create` and `bundleWorkflowCode` (its `failureConverterPath`).
 * @returns `{}` (Temporal's default JSON payloads) when encryption is off; else the AES-256-GCM codec plus a failure
 *   converter that moves failure messages into encrypted payloads.
 * @throws CodecConfigError when encryption is on and the keys are missing or malformed.
 */
export function dataConverterFromConfig(
  config: Pick<Config, 'codec'>,
  env: NodeJS.ProcessEnv = process.env
): DataConverter {
  if (!config.codec.encrypt) return {};
  return { payloadCodecs: [codecFromConfig(config.codec, env)], failureConverterPath: FAILURE_CONVERTER_PATH };
}
