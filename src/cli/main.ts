#!/usr/bin/env node
/**
 * `durable-compaction <command> …`: the JSON-in, JSON-out command-line front. Each command lives in its own module
 * and returns the process exit code (0 ok, 2 bad input with one line on stderr, 1 anything else).
 * `durable-compaction --help` lists the commands; `durable-compaction <command> --help` explains one.
 */
import { runCodecServer } from './codec-server';
import { compactHelp, runCompact } from './compact';
import { runCount } from './count';
import { deleteHelp, runDelete } from './delete';
import { demoHelp, runDemo } from './demo';
import { exportHelp, runExport } from './export';
import { foldHelp, runFold } from './fold';
import { runInspect } from './inspect';
import { CliUsageError, type CliIO } from './io';
import { runPlan } from './plan';
import { recallHelp, runRecall } from './recall';
import { replayHelp, runReplay } from './replay';
import { devHelp, runDevCommand, runWorkerCommand, workerHelp } from './worker';

interface Command {
  run: (args: string[], io: CliIO) => Promise<number>;
  /** One line for the command list (the README's CLI list is checked against these). */
  line: string;
  help: string;
}

const commands: Record<string, Command> = {
  worker: {
    run: runWorkerCommand,
    line: 'worker   [--config FILE]  the production worker',
    help: workerHelp,
  },
  dev: {
    run: runDevCommand,
    line: 'dev      [--config FILE]  a local dev server and the worker (npm start)',
    help: devHelp,
  },
  plan: {
    run: runPlan,
    line: 'plan     --model M --budget N [--policy P] FILE   decide what a fold would summarise and keep',
    help: `usage: durable-compaction plan --model M --budget N [--policy P] [--format F] [--tools FILE] FILE
Counts FILE's messages (a JSON array; - reads stdin) and prints the fold decision:
{"fold", "reason", "tokens", "split", "summarize", "keep"} with indices into FILE.
--format chat|responses|typed|anthropic: detected from FILE's unambiguous evidence when absent (a FILE mixing
formats is refused); --tools FILE: the tool definitions sent with each request, counted in the budget.`,
  },
  count: {
    run: runCount,
    line: 'count    --model M FILE                         count tokens, per message and in total',
    help: `usage: durable-compaction count --model M [--format F] [--tools FILE] FILE
Prints {"total", "messages": [n, …]}: each message's tokens with its wire overhead; total adds reply priming
(and, with --tools, "tools": the tool definitions' tokens).`,
  },
  inspect: {
    run: runInspect,
    line: 'inspect  --conversation ID [--summaries]  folds, summaries and diffs, revisions',
    help: `usage: durable-compaction inspect --conversation ID [--workflow-id ID] [--data DIR] [--summaries]
Prints {"conversation", "workflowId", "driver", "archived", "lastSeq", "folds": [{"number", "ok", "replaced", …}],
"superseded": [...]} from the configured archive (SQLite or PostgreSQL; --data overrides devServer.dataDir).
--summaries: {"conversation", "workflowId", "driver", "summaries": [{"number", "replaced", "requestDigest", "kind",
"summary", "diff": {"added", "removed", "lines"}}, …]}, each applied fold's summary and its line diff against the
previous one ("lines": "@@ -a,n +b,m @@", "- removed", "+ added"; null for the first).`,
  },
  compact: {
    run: runCompact,
    line: 'compact  --conversation ID [--focus TEXT]  fold a running conversation now',
    help: compactHelp,
  },
  fold: {
    run: runFold,
    line: "fold     --model M --budget N [--summarizer S] FILE  one fold offline, through the workflow's fold step",
    help: foldHelp,
  },
  export: {
    run: runExport,
    line: 'export   --conversation ID [--lines] [--archive-only]  live context and archive of a conversation, as JSON',
    help: exportHelp,
  },
  delete: {
    run: runDelete,
    line: 'delete   --conversation ID                      erase a conversation for good',
    help: deleteHelp,
  },
  recall: {
    run: runRecall,
    line: 'recall   --conversation ID QUERY               archived messages by number (#12, #12-#40), id or words',
    help: recallHelp,
  },
  replay: {
    run: runReplay,
    line: "replay   FILE                                   check a downloaded history against this worker's code",
    help: replayHelp,
  },
  demo: {
    run: runDemo,
    line: 'demo     [--session FILE] [--budget N]           drive a real session through the running worker',
    help: demoHelp,
  },
  'codec-server': {
    run: runCodecServer,
    line: 'codec-server [--ip A] [--port N] [--origins O]  decrypt/encrypt payloads for the Temporal UI and CLI',
    help: `usage: durable-compaction codec-server [--ip A] [--port N] [--origins O1,O2]
Serves /encode and /decode with the keys of temporal.yaml's codec section (flags override its serverIp, serverPort and
serverOrigins) for the Temporal UI and 'temporal --codec-endpoint', until SIGINT or SIGTERM. Prints the endpoint URL
on its first line.`,
  },
};

/** The top-level usage text. */
export const usage = `usage: durable-compaction <command> [options]   (<command> --help for details)
commands:
${Object.values(commands)
  .map((c) => `  ${c.line}`)
  .join('\n')}`;

/** Runs one command line; returns the exit code. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    io.stdout(usage);
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.stderr(`durable-compaction: unknown command '${name}' (known: ${Object.keys(commands).join(', ')})`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(command.help);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // One line: a multi-line message (a server's) is folded so scripts can read it.
    io.stderr(`durable-compaction ${name}: ${message.replace(/\s*\n\s*/g, ' ')}`);
    return err instanceof CliUsageError ? 2 : 1;
  }
}

/**
 * Exits with `code` once stdout and stderr have handed everything written to the OS. `process.exit()` right after a
 * write drops what a pipe has not taken yet (a pipe buffers 64 KiB): `export … | wc -c` was cut at a multiple of it.
 * A reader that went away (`| head`) is not an error of the command.
 */
function exitWhenFlushed(code: number): void {
  let pending = 2;
  const done = (): void => {
    if (--pending === 0) process.exit(code);
  };
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', () => process.exit(code));
    stream.write('', done);
  }
}

if (require.main === module) {
  const io: CliIO = { stdout: (s) => process.stdout.write(s + '\n'), stderr: (s) => process.stderr.write(s + '\n') };
  main(process.argv.slice(2), io).then(exitWhenFlushed, (err: unknown) => {
    process.stderr.write(String(err) + '\n');
    exitWhenFlushed(1);
  });
}
