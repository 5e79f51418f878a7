import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** The `codec` settings of a test worker or client that encrypts with key `k1` (the keys in DC_CODEC_KEYS). */
export const testCodecSettings = {
  encrypt: true,
  keyId: 'k1',
  keysEnv: 'DC_CODEC_KEYS',
  serverIp: '127.0.0.1',
  serverPort: 0,
  serverOrigins: '',
};

/** Starts the CLI's codec server on a free port. @returns the process and its endpoint URL. */
export async function startCodecServerProcess(
  env: Record<string, string>
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(join(root, 'bin', 'durable-compaction'), ['codec-server', '--port', '0'], {
    cwd: root,
    env: { ...process.env, DC_CONFIG: join(root, 'temporal.yaml'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`codec server exited with ${code}: ${output}`)));
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) resolve(m[1]!);
    });
  });
  return { child, url, output: () => output };
}
