import { isRecordNotFound, type PrismaClient } from "@app/db";

export interface Visit {
  shortId: string;
  ipAddress: string;
  userAgent: string;
  referer: string;
}

/** The short was deleted between the redirect's lookup and the write of its visit. */
export class ShortGone extends Error {
  override name = "ShortGone";
}

interface Pending {
  visit: Visit;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface VisitLogOptions {
  /** Most rows in one INSERT. */
  maxBatch?: number;
  /** INSERTs in flight at once (each holds one pooled connection). */
  concurrency?: number;
}

/**
 * Durable visit logging with group commit. `record()` resolves once the visit's row is
 * committed, so a redirect is only sent after its log row is stored. Visits that arrive
 * while an INSERT is in flight wait and go out together in the next multi-row INSERT:
 * an idle service writes each visit at once, a busy one writes few large batches
 * instead of one round trip per visit. See docs/decisions.md.
 */
export class VisitLog {
  private readonly queue: Pending[] = [];
  private inFlight = 0;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly maxBatch: number;
  private readonly concurrency: number;

  constructor(
    private readonly prisma: PrismaClient,
    { maxBatch = 500, concurrency = 2 }: VisitLogOptions = {},
  ) {
    this.maxBatch = maxBatch;
    this.concurrency = concurrency;
  }

  record(visit: Visit): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ visit, resolve, reject });
      this.pump();
    });
  }

  /** Resolves when every visit recorded so far is written (or has failed). */
  drain(): Promise<void> {
    if (this.inFlight === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.inFlight < this.concurrency && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        this.pump();
        if (this.inFlight === 0 && this.queue.length === 0) {
          for (const wake of this.idleWaiters.splice(0)) wake();
        }
      });
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      await this.prisma.shortLog.createMany({ data: batch.map((p) => p.visit) });
      for (const p of batch) p.resolve();
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(isForeignKeyViolation(error) ? new ShortGone() : error);
        return;
      }
      // One bad row (a short deleted meanwhile) must not fail its neighbours: retry alone.
      await Promise.all(batch.map((p) => this.write([p])));
    }
  }
}

function isForeignKeyViolation(error: unknown): boolean {
  return (
    isRecordNotFound(error) ||
    (typeof error === "object" && error !== null && (error as { code?: string }).code === "P2003")
  );
}
