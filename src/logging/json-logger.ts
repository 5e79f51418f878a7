/**
 * Structured logs: one JSON object per line with the time, level, message, and — for lines from workflow and activity
 * code — the conversation id and run id, so a conversation's lines can be found with one filter.
 */
import type { LogLevel, LogMetadata, Logger } from '@temporalio/common';
import { workflowIdPrefix } from '../contract/definitions';

/** Levels the configuration accepts, lowest first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type ConfiguredLogLevel = (typeof LOG_LEVELS)[number];

/** Options of {@link StructuredLogger}. */
export interface StructuredLoggerOptions {
  /** Lowest level written. @default 'info' */
  level?: ConfiguredLogLevel;
  /** `json` (one object per line) or `text` (`time LEVEL message key=value…`). @default 'json' */
  format?: 'json' | 'text';
  /** Where lines go. @default process.stderr */
  write?: (line: string) => void;
}

const RANK: Record<LogLevel, number> = { TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4 };

/** @returns a JSON-safe copy of a metadata value (errors become their message; bigints strings). */
function plain(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/**
 * A Temporal `Logger` writing structured lines. The SDK's own components (`worker`, `core`) log bundle builds and
 * state changes at INFO: they are written at `warn` and above unless the level is `debug`.
 */
export class StructuredLogger implements Logger {
  private readonly min: number;
  private readonly sdkMin: number;
  private readonly format: 'json' | 'text';
  private readonly write: (line: string) => void;

  constructor(options: StructuredLoggerOptions = {}) {
    const level = options.level ?? 'info';
    this.min = RANK[level.toUpperCase() as LogLevel];
    this.sdkMin = level === 'debug' ? RANK.DEBUG : Math.max(this.min, RANK.WARN);
    this.format = options.format ?? 'json';
    this.write = options.write ?? ((line) => process.stderr.write(line + '\n'));
  }

  log(level: LogLevel, message: string, meta: LogMetadata = {}): void {
    // Workflow lines carry `runId`, activity lines `workflowRunId`; the task token is an opaque credential-like blob.
    const {
      sdkComponent,
      workflowId,
      runId,
      workflowRunId,
      taskToken: _token,
      ...rest
    } = meta as Record<string, unknown>;
    const internal = sdkComponent === 'worker' || sdkComponent === 'core';
    if (RANK[level] < (internal ? this.sdkMin : this.min)) return;
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level: level.toLowerCase(), msg: message };
    if (typeof workflowId === 'string') {
      if (workflowId.startsWith(workflowIdPrefix)) entry.conversationId = workflowId.slice(workflowIdPrefix.length);
      entry.workflowId = workflowId;
    }
    if (runId !== undefined || workflowRunId !== undefined) entry.runId = runId ?? workflowRunId;
    if (sdkComponent !== undefined) entry.component = sdkComponent;
    for (const [k, v] of Object.entries(rest)) entry[k] = plain(v);
    this.write(this.format === 'json' ? JSON.stringify(entry) : text(entry));
  }

  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }
  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }
  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }
  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }
  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
}

function text(entry: Record<string, unknown>): string {
  const { time, level, msg, ...rest } = entry;
  const pairs = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return [time, String(level).toUpperCase(), msg, ...pairs].join(' ');
}
