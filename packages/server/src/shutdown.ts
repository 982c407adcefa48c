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

/**
 * Runs `close` once, on the first SIGINT or SIGTERM (or an uncaught error), then exits 0, or 1
 * after an error or past `delay` ms (undefined: `close` bounds itself). A repeat of the signal
 * within REPEATED_SIGNAL_MS is ignored; a later one goes to `onSecondRequest`, and exits 1 at
 * once unless that returns true (it was used: a service ends its readiness wait early).
 */
export function closeGracefully(
  delay: number | undefined,
  close: (cause: ShutdownCause) => Promise<void>,
  {
    onSecondRequest,
    keep = [],
  }: {
    onSecondRequest?: () => boolean;
    /** Signals the caller handles itself rather than as a request to stop (`pnpm scale`: SIGHUP). */
    keep?: "SIGHUP"[];
  } = {},
): void {
  let signal: string | undefined;
  // close-with-grace keeps the other signals, uncaught errors and the delay; SIGINT and
  // SIGTERM are ours, so a repeat can be told from a second request.
  const grace = closeWithGrace({ delay: delay ?? null, skip: [...SHUTDOWN_SIGNALS, ...keep] }, ({ err }) =>
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
    if (onSecondRequest?.()) return;
    // Asked again, later: stop waiting for in-flight work.
    console.error(`second ${received}, exiting`);
    process.exit(1);
  };
  for (const name of SHUTDOWN_SIGNALS) process.on(name, onSignal);
}
