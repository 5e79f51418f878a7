/**
 * `durable-compaction <command> …`: the JSON-in, JSON-out command-line front. Each command lives in its own module
 * and returns the process exit code (0 ok, 2 bad input, 1 anything else).
 */
import { runCodecServer } from './codec-server';
import { runCount } from './count';
import { runExport } from './export';
import { runInspect } from './inspect';
import { CliUsageError, type CliIO } from './io';
import { runPlan } from './plan';

type Command = (args: string[], io: CliIO) => Promise<number>;

const commands: Record<string, Command> = {
  plan: runPlan,
  count: runCount,
  inspect: runInspect,
  export: runExport,
  'codec-server': runCodecServer,
};

const usage = `usage: durable-compaction <command> [options] FILE
commands:
  plan     --model M --budget N [--policy P] FILE   decide what a fold would summarise and keep
  count    --model M FILE                         count tokens, per message and in total
  inspect  --conversation ID [--data DIR]         show the archive ranges each summary replaced, and revisions
  export   --conversation ID [--data DIR]         print the conversation's archive as JSON lines
  codec-server [--ip A] [--port N] [--origins O]  decrypt/encrypt payloads for the Temporal UI and CLI`;

/** Runs one command line; returns the exit code. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    io.stdout(usage);
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.stderr(`durable-compaction: unknown command '${name}'\n${usage}`);
    return 2;
  }
  try {
    return await command(rest, io);
  } catch (err) {
    if (err instanceof CliUsageError) {
      io.stderr(`durable-compaction ${name}: ${err.message}`);
      return 2;
    }
    io.stderr(`durable-compaction ${name}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

if (require.main === module) {
  const io: CliIO = { stdout: (s) => process.stdout.write(s + '\n'), stderr: (s) => process.stderr.write(s + '\n') };
  main(process.argv.slice(2), io).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(String(err) + '\n');
      process.exit(1);
    }
  );
}
