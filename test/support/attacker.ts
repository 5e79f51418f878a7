/**
 * Stand-ins for an attacker's targets: a TCP listener on the loopback address that counts every connection, and a
 * FIFO "secret file" that proves nobody opened it for reading (an open for reading blocks until a writer comes, so a
 * worker that tried is still waiting, and a non-blocking open for writing then succeeds instead of failing ENXIO).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

/** A listener that counts connections and answers nothing. */
export interface AttackerListener {
  /** `http://127.0.0.1:<port>/v1`. */
  url: string;
  connections: () => number;
  close: () => Promise<void>;
}

/** Starts an {@link AttackerListener} on 127.0.0.1 and a free port. */
export async function startListener(): Promise<AttackerListener> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    connections: () => connections,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A FIFO at `path` that tells whether some process is (trying to be) reading it. */
export interface FifoTrap {
  path: string;
  /** @returns true when a reader has the FIFO open, or is blocked opening it. */
  hasReader: () => boolean;
}

/** Creates the FIFO (`mkfifo`). */
export function fifoTrap(path: string): FifoTrap {
  execFileSync('mkfifo', [path]);
  return {
    path,
    hasReader: () => {
      try {
        // Opening the write end without blocking: ENXIO when no process has the read end open.
        closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENXIO') return false;
        throw err;
      }
    },
  };
}
