// Graceful shutdown for every entry point (`pnpm start`, each service's server.ts): on SIGTERM
// or SIGINT, `close` runs once (stop accepting, finish in-flight work, close pools and the
// database) and the process exits 0, or 1 after an error or past `delay`.
import closeWithGrace from "close-with-grace";

/**
 * A repeat of a signal within this window is the same request, delivered twice: Ctrl-C in a
 * terminal signals the whole foreground group, so `pnpm start` / `pnpm dev` (pnpm, tsx watch)
 * get it and forward it to node, which got it too. close-with-grace alone took that copy for
 * an impatient second Ctrl-C and exited 1 at once, without draining. Three seconds: pnpm's copy
 * comes late from a loaded machine (a second was the bound before, and a busy CI run crossed it).
 */
export const REPEATED_SIGNAL_MS = 3_000;

const SHUTDOWN_SIGNALS = ["SIGINT", "SIGTERM"] as const;

export interface ShutdownCause {
  signal?: string;
  err?: Error;
}

export function closeGracefully(delay: number, close: (cause: ShutdownCause) => Promise<void>): void {
  let signal: string | undefined;
  // close-with-grace keeps the other signals, uncaught errors and the delay; SIGINT and
  // SIGTERM are ours, so a repeat can be told from a second request.
  const grace = closeWithGrace({ delay, skip: [...SHUTDOWN_SIGNALS] }, ({ err }) =>
    close({ ...(signal === undefined ? {} : { signal }), ...(err === undefined ? {} : { err }) }),
  );
  let firstAt: number | undefined;
  const onSignal = (received: NodeJS.Signals) => {
    const now = Date.now();
    if (firstAt === undefined) {
      firstAt = now;
      signal = received;
      void grace.close();
      return;
    }
    if (now - firstAt < REPEATED_SIGNAL_MS) return;
    // Asked again, later: stop waiting for in-flight work.
    console.error(`second ${received}, exiting`);
    process.exit(1);
  };
  for (const name of SHUTDOWN_SIGNALS) process.on(name, onSignal);
}
