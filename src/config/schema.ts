/**
 * The shape of `temporal.yaml`: every key, its type, its default and the environment variable that overrides it.
 * One table drives loading, validation, defaults and the README's configuration reference, so they cannot drift.
 */
import type { SummarizerProfileConfig } from './profiles';

/** One leaf setting. */
export interface Setting {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'enum';
  default: string | number | boolean;
  /** For `enum`: the allowed values. */
  values?: readonly string[];
  /** For numbers: inclusive bounds. */
  min?: number;
  max?: number;
  /** Environment variable that overrides the file. */
  env?: string;
  doc: string;
}

/** Section → key → setting. */
export const schema = {
  temporal: {
    address: {
      type: 'string',
      default: '',
      env: 'TEMPORAL_ADDRESS',
      doc: 'host:port of a Temporal frontend; empty = start the embedded dev server',
    },
    namespace: { type: 'string', default: 'default', env: 'TEMPORAL_NAMESPACE', doc: 'Temporal namespace' },
    taskQueue: {
      type: 'string',
      default: 'durable-compaction',
      env: 'TEMPORAL_TASK_QUEUE',
      doc: 'task queue the worker polls',
    },
    tls: {
      type: 'boolean',
      default: false,
      env: 'TEMPORAL_TLS',
      doc: 'connect with TLS (implied by an API key or client certificate)',
    },
    tlsServerName: { type: 'string', default: '', env: 'TEMPORAL_TLS_SERVER_NAME', doc: 'TLS server name override' },
    tlsServerRootCaCertPath: {
      type: 'string',
      default: '',
      env: 'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
      doc: 'PEM file of the CA that signed the server certificate',
    },
    tlsClientCertPath: {
      type: 'string',
      default: '',
      env: 'TEMPORAL_TLS_CLIENT_CERT_PATH',
      doc: 'PEM client certificate (mTLS)',
    },
    tlsClientKeyPath: {
      type: 'string',
      default: '',
      env: 'TEMPORAL_TLS_CLIENT_KEY_PATH',
      doc: 'PEM client key (mTLS)',
    },
    apiKeyEnv: {
      type: 'string',
      default: 'TEMPORAL_API_KEY',
      doc: 'name of the environment variable holding a Temporal Cloud API key (the key itself never goes in this file)',
    },
  },
  devServer: {
    ip: { type: 'string', default: '127.0.0.1', env: 'DEV_SERVER_IP', doc: 'address the embedded dev server binds' },
    port: { type: 'integer', default: 7233, min: 1, max: 65535, env: 'DEV_SERVER_PORT', doc: 'frontend gRPC port' },
    uiPort: { type: 'integer', default: 8233, min: 1, max: 65535, env: 'DEV_SERVER_UI_PORT', doc: 'Web UI port' },
    dataDir: {
      type: 'string',
      default: '.data',
      env: 'DATA_DIR',
      doc: 'folder for the SQLite database and the conversation archive (git-ignored)',
    },
    logLevel: {
      type: 'enum',
      default: 'warn',
      values: ['debug', 'info', 'warn', 'error'],
      doc: 'dev server log level',
    },
    cliPath: {
      type: 'string',
      default: '.tools/temporal',
      env: 'TEMPORAL_CLI_PATH',
      doc: 'Temporal CLI binary (installed by scripts/setup.sh)',
    },
  },
  worker: {
    maxCachedWorkflows: {
      type: 'integer',
      default: 500,
      min: 0,
      doc: 'conversations kept in the sticky cache (each holds its live context in memory)',
    },
    maxConcurrentWorkflowTaskExecutions: { type: 'integer', default: 40, min: 2, doc: 'workflow tasks run at once' },
    maxConcurrentActivityTaskExecutions: {
      type: 'integer',
      default: 20,
      min: 1,
      doc: 'activities (summarizer calls, archive writes) run at once',
    },
    maxConcurrentLocalActivityExecutions: {
      type: 'integer',
      default: 40,
      min: 1,
      doc: 'local activities (token counting) run at once',
    },
    heartbeatThrottleMs: {
      type: 'integer',
      default: 1000,
      min: 100,
      max: 60000,
      doc: 'longest wait before a heartbeat reaches the server (the SDK waits up to 0.8 × the heartbeat timeout otherwise)',
    },
  },
  archive: {
    driver: {
      type: 'enum',
      default: 'sqlite',
      values: ['sqlite', 'postgres'],
      env: 'ARCHIVE_DRIVER',
      doc: 'sqlite = one embedded file (one host); postgres = shared by workers on several hosts',
    },
    path: {
      type: 'string',
      default: '',
      env: 'ARCHIVE_PATH',
      doc: 'SQLite archive file; empty = <devServer.dataDir>/archive.sqlite',
    },
    url: {
      type: 'string',
      default: '',
      env: 'DATABASE_URL',
      doc: 'PostgreSQL URL (postgres://user@host:5432/db); keep the password in DATABASE_URL, PGPASSWORD or ~/.pgpass, not in this file',
    },
    poolSize: { type: 'integer', default: 10, min: 1, max: 1000, doc: 'PostgreSQL connections per worker' },
  },
  compaction: {
    model: {
      type: 'string',
      default: 'gpt-4o',
      env: 'COMPACTION_MODEL',
      doc: 'model the conversation is sent to: picks the tokenizer',
    },
    budget: {
      type: 'integer',
      default: 128000,
      min: 256,
      max: 300000,
      env: 'COMPACTION_BUDGET',
      doc: 'context budget in tokens (at most 300 000: the live context must fit one Temporal payload)',
    },
    triggerRatio: {
      type: 'number',
      default: 0.9,
      min: 0.05,
      max: 1,
      doc: 'fold when the context reaches this share of the budget',
    },
    policy: {
      type: 'enum',
      default: 'auto',
      values: ['auto', 'turns', 'items', 'ratio', 'rounds', 'tokens'],
      doc: 'which recent part is kept verbatim',
    },
    maxMessageBytes: {
      type: 'integer',
      default: 1048576,
      min: 1024,
      max: 1572864,
      doc: 'largest single message accepted (bytes of JSON); keeps every payload under the 2 MiB Temporal limit',
    },
  },
  summarizer: {
    profile: {
      type: 'string',
      default: 'default',
      env: 'SUMMARIZER_PROFILE',
      doc: "profile of conversations that name none: 'default' (this section) or one of summarizerProfiles",
    },
    mode: {
      type: 'enum',
      default: 'extractive',
      values: ['extractive', 'chat', 'responses', 'compact'],
      env: 'SUMMARIZER_MODE',
      doc: 'extractive = offline digest; the others call a model',
    },
    model: { type: 'string', default: 'gpt-4o-mini', env: 'SUMMARIZER_MODEL', doc: 'model that writes summaries' },
    baseURL: {
      type: 'string',
      default: 'https://api.openai.com/v1',
      env: 'OPENAI_BASE_URL',
      doc: 'any OpenAI-compatible endpoint',
    },
    apiKeyEnv: { type: 'string', default: 'OPENAI_API_KEY', doc: 'environment variable holding the API key' },
    apiKeyFile: {
      type: 'string',
      default: '',
      env: 'OPENAI_API_KEY_FILE',
      doc: 'file holding the API key (read by the activity only)',
    },
    timeoutMs: { type: 'integer', default: 120000, min: 1000, doc: 'per-request timeout; Temporal retries' },
    maxOutputTokens: {
      type: 'integer',
      default: 0,
      min: 0,
      doc: 'cap on summary output tokens, whatever a conversation asks (0 = no cap)',
    },
  },
  codec: {
    encrypt: {
      type: 'boolean',
      default: false,
      env: 'DC_CODEC_ENCRYPT',
      doc: 'encrypt every payload with AES-256-GCM, so the Temporal server stores ciphertext only',
    },
    keyId: {
      type: 'string',
      default: '',
      env: 'DC_CODEC_KEY_ID',
      doc: "id of the key new payloads are encrypted with ('' = the first key listed)",
    },
    keysEnv: {
      type: 'string',
      default: 'DC_CODEC_KEYS',
      doc: 'name of the environment variable holding the keys, id:base64key[,id:base64key…] (never this file)',
    },
    serverIp: {
      type: 'string',
      default: '127.0.0.1',
      env: 'DC_CODEC_SERVER_IP',
      doc: 'address the codec server binds',
    },
    serverPort: {
      type: 'integer',
      default: 8888,
      min: 0,
      max: 65535,
      env: 'DC_CODEC_SERVER_PORT',
      doc: 'codec server port (0 = any free port)',
    },
    serverOrigins: {
      type: 'string',
      default: 'http://localhost:8233,http://127.0.0.1:8233',
      env: 'DC_CODEC_SERVER_ORIGINS',
      doc: 'comma-separated origins of the Temporal UIs allowed to call the codec server (CORS)',
    },
  },
} as const satisfies Record<string, Record<string, Setting>>;

export type Schema = typeof schema;

type ValueOf<S extends Setting> = S['type'] extends 'integer' | 'number'
  ? number
  : S['type'] extends 'boolean'
    ? boolean
    : S extends { values: readonly (infer V)[] }
      ? V
      : string;

/** The loaded configuration: every key present, typed; `summarizerProfiles` is a map (see `profiles.ts`). */
export type Config = { [Sec in keyof Schema]: { [K in keyof Schema[Sec]]: ValueOf<Schema[Sec][K] & Setting> } } & {
  summarizerProfiles: Record<string, SummarizerProfileConfig>;
};
