// The visit log's metrics, next to the request and pool metrics every service has: its queue,
// batch sizes and commit latency.
import { Gauge, Histogram, type Registry } from "@app/server/metrics";

/** Told about every batch the visit log writes. */
export interface VisitLogObserver {
  batchCommitted(size: number, seconds: number): void;
  batchFailed?(size: number): void;
  /** A fold of pending sums failed (they stay pending, for the next fold). */
  foldFailed?(error: unknown): void;
}

export function visitLogMetrics(registry: Registry, depth: () => number): VisitLogObserver {
  new Gauge({
    name: "visit_log_queue_depth",
    help: "Visits waiting for their row (queued or being written)",
    registers: [registry],
    collect() {
      this.set(depth());
    },
  });
  const batchSize = new Histogram({
    name: "visit_log_batch_size",
    help: "Visits written per INSERT",
    labelNames: ["outcome"],
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500],
    registers: [registry],
  });
  const commit = new Histogram({
    name: "visit_log_commit_seconds",
    help: "Time to write and commit one batch of visits",
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  return {
    batchCommitted(size, seconds) {
      batchSize.observe({ outcome: "committed" }, size);
      commit.observe(seconds);
    },
    batchFailed(size) {
      batchSize.observe({ outcome: "failed" }, size);
    },
  };
}
