// One LISTEN session on a channel, kept up: on its own connection (dedicatedConnection, never the
// pool), retried every `retryMs` after a failure, an outage reported once and its end once. The
// change-notified cache and scheduling's mail sender both listen through it.

import { dedicatedConnection } from "./client.ts";
import type { PrismaClient } from "./generated/prisma/client.ts";

export interface NotificationListenerOptions {
  channel: string;
  /** Each notification's payload ("" when it was sent without one). */
  onNotification: (payload: string) => void;
  /** LISTEN is in place (first time, and after each outage). */
  onListening?: () => void;
  /** The connection was lost (every time, before a retry is scheduled). */
  onLost?: () => void;
  /** The listening connection failed: called once per outage, not at every retry. */
  onOutage?: (error: unknown) => void;
  /** Listening again after an outage: called once. */
  onRecovery?: () => void;
  /** Delay before listening again after the connection failed (default 1 s). */
  retryMs?: number;
}

export class NotificationListener {
  private listening = false;
  private failing = false;
  private stopped = false;
  private connection: ReturnType<typeof dedicatedConnection> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private readonly retryMs: number;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: NotificationListenerOptions,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.channel))
      throw new Error(`not a channel name: ${options.channel}`);
    this.retryMs = options.retryMs ?? 1_000;
  }

  /** Whether LISTEN is in place now. */
  get isListening(): boolean {
    return this.listening;
  }

  async start(): Promise<void> {
    this.stopped = false;
    const connection = dedicatedConnection(this.prisma);
    this.connection = connection;
    const lost = (error?: unknown) => {
      if (this.connection !== connection) return;
      this.listening = false;
      this.connection = undefined;
      this.options.onLost?.();
      void connection.end().catch(() => {});
      if (!this.failing) {
        this.failing = true;
        this.options.onOutage?.(error ?? new Error("the listening connection ended"));
      }
      if (!this.stopped) this.retry = setTimeout(() => void this.start(), this.retryMs).unref();
    };
    connection.on("error", lost);
    connection.on("end", () => lost());
    connection.on("notification", ({ payload }) => {
      if (payload !== undefined) this.options.onNotification(payload);
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${this.options.channel}`);
      // The connection may have failed (and another attempt begun) while LISTEN was in flight.
      if (this.connection === connection && !this.stopped) {
        this.listening = true;
        this.options.onListening?.();
        if (this.failing) {
          this.failing = false;
          this.options.onRecovery?.();
        }
      }
    } catch (error) {
      lost(error);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.listening = false;
    const connection = this.connection;
    this.connection = undefined;
    await connection?.end().catch(() => {});
  }
}
