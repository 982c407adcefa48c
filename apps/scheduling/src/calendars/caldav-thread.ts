// The calendar sync's thread (docs/adr/0289): the CalDAV requests, the XML they answer and the
// expansion of every object run in a worker thread of their own, with a small young generation,
// while the sync's database work stays on the instance's thread. A first sync of a large calendar
// reads tens of megabytes of XML and allocates some 60 kB an object expanding it: on the
// instance's thread that grew its young generation to the services' 2 × 64 MB (ADR 0237) and
// held the event loop between objects. One thread per process, shared by its syncs, started at
// the first sync and stopped once idle; it never keeps the process alive by itself.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import { type ResourceLimits, Worker } from "node:worker_threads";
import {
  type CalDavClientOptions,
  CalDavError,
  type CalDavErrorKind,
  type ObjectRef,
  type SyncChange,
} from "./caldav-client.ts";
import type { ExpandedObject } from "./object-busy.ts";

/** Listed entries per message from the thread (the sync writes them 500 a statement). */
export const LISTING_CHUNK = 500;
/** The thread's heap: a young generation of V8's usual size, and a bound for the rest. */
export const THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 1_024 };
/** How long an idle thread is kept for the next sync. */
const IDLE_MS = 30_000;

export interface Window {
  from: number;
  to: number;
}

/** What the instance's thread asks the sync's thread. */
export type ToThread =
  | { op: "open"; client: number; options: CalDavClientOptions }
  | { op: "close"; client: number }
  | { op: "ctag"; id: number; client: number; url: string }
  | { op: "sync"; id: number; client: number; url: string; token: string | null }
  | { op: "list"; id: number; client: number; url: string }
  | { op: "more"; id: number }
  | { op: "cancel"; id: number }
  | { op: "heap"; id: number }
  | {
      op: "fetch";
      id: number;
      client: number;
      url: string;
      hrefs: string[];
      window: Window;
      timeZone: string;
    }
  | {
      op: "expand";
      id: number;
      objects: { href: string; etag: string; data: string }[];
      window: Window;
      timeZone: string;
    };

/** A request that is answered (an id of its own). */
type Request = Extract<ToThread, { id: number }>;

export interface ThreadError {
  name: string;
  message: string;
  kind?: CalDavErrorKind;
  status?: number;
}

/** What the sync's thread answers: a result, a chunk of a listing, or an error. */
export type FromThread =
  | { id: number; result: unknown }
  | { id: number; items: unknown[]; done: boolean; token?: string | null }
  | { id: number; error: ThreadError };

/** A CalDavError stays one across the threads (its kind decides what the sync does). */
export function threadError(error: unknown): ThreadError {
  if (error instanceof CalDavError)
    return {
      name: error.name,
      message: error.message,
      kind: error.kind,
      ...(error.status === undefined ? {} : { status: error.status }),
    };
  return { name: "Error", message: error instanceof Error ? error.message : String(error) };
}

function rebuilt(error: ThreadError): Error {
  return error.kind ? new CalDavError(error.kind, error.message, error.status) : new Error(error.message);
}

/**
 * The process's `--max-semi-space-size` (the services' flags, ADR 0237: on the command line), which V8 applies to every
 * isolate it makes and which overrides a worker's `maxYoungGenerationSizeMb`; null when not set.
 */
function semiSpaceFlag(): string | null {
  const found = process.execArgv
    .map((flag) => /^--max[-_]semi[-_]space[-_]size=(\d+)$/.exec(flag))
    .findLast(Boolean);
  return found ? found[1]! : null;
}

/**
 * Starts the worker with its own young generation: the process's semi-space flag is lifted
 * while V8 makes the thread's heap (it reads the flag then, and the instance's own heap never
 * again), and put back once the thread runs.
 */
function startWorker(resourceLimits: ResourceLimits): Worker {
  const semiSpace = semiSpaceFlag();
  if (semiSpace === null) return newWorker(resourceLimits);
  v8.setFlagsFromString("--max-semi-space-size=0");
  try {
    const worker = newWorker(resourceLimits);
    const restore = () => v8.setFlagsFromString(`--max-semi-space-size=${semiSpace}`);
    worker.once("online", restore);
    worker.once("exit", restore);
    return worker;
  } catch (error) {
    v8.setFlagsFromString(`--max-semi-space-size=${semiSpace}`);
    throw error;
  }
}

/** The worker's entry: its compiled file, or its source through tsx (tests, `pnpm dev`). */
function newWorker(resourceLimits: ResourceLimits): Worker {
  const here = import.meta.url;
  // Not the process's other flags: a thread takes few of them, and the heap's are set above.
  const execArgv = process.execArgv.filter((flag) => flag === "--enable-source-maps");
  if (!here.endsWith(".ts"))
    return new Worker(new URL("./caldav-worker.js", here), { resourceLimits, execArgv });
  // tsx's ESM entry, as its package names it (a require() resolution would give its CommonJS one).
  const tsxPackage = createRequire(here).resolve("tsx/package.json");
  const { exports } = JSON.parse(readFileSync(tsxPackage, "utf8"));
  const tsx = pathToFileURL(path.join(path.dirname(tsxPackage), exports["./esm/api"].import.default)).href;
  const entry = new URL("./caldav-worker.ts", here).href;
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, resourceLimits, execArgv });
}

type Handler = (message: FromThread | { id: number; error: ThreadError }) => void;

export class CalDavThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly handlers = new Map<number, Handler>();
  private openClients = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly limits: ResourceLimits = THREAD_LIMITS) {}

  /** A CalDAV account, its requests and parsing in the thread; `close()` when done. */
  open(options: CalDavClientOptions): ThreadClient {
    const client = this.nextId++;
    this.openClients++;
    this.post({ op: "open", client, options });
    let closed = false;
    return {
      getCtag: (url) =>
        this.call<{ ctag: string | null; syncToken: string | null }>({ op: "ctag", id: 0, client, url }),
      syncCollection: (url, token) => {
        let next: string | null | undefined;
        return {
          get syncToken() {
            if (next === undefined) throw new Error("the sync-collection has not been read to its end");
            return next;
          },
          [Symbol.asyncIterator]: () =>
            this.stream<SyncChange>({ op: "sync", id: 0, client, url, token }, (token) => {
              next = token ?? null;
            }),
        };
      },
      listObjects: (url) => ({
        [Symbol.asyncIterator]: () => this.stream<ObjectRef>({ op: "list", id: 0, client, url }),
      }),
      fetchExpanded: (url, hrefs, window, timeZone) =>
        this.call<ExpandedObject[]>({ op: "fetch", id: 0, client, url, hrefs, window, timeZone }),
      close: () => {
        if (closed) return;
        closed = true;
        this.openClients--;
        if (this.worker) this.post({ op: "close", client });
        this.idleCheck();
      },
    };
  }

  /** Objects' busy pieces over `window` (stored objects expanded again). */
  expand(
    objects: { href: string; etag: string; data: string }[],
    window: Window,
    timeZone: string,
  ): Promise<ExpandedObject[]> {
    return this.call<ExpandedObject[]>({ op: "expand", id: 0, objects, window, timeZone });
  }

  /** The thread's heap, as V8 set it up: its bound (young and old generations), and in use. */
  heap(): Promise<{ limit: number; used: number }> {
    return this.call<{ limit: number; used: number }>({ op: "heap", id: 0 });
  }

  /** Ends the thread; whatever still waits on it fails (a sync records the failure). */
  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
    this.failAll("the calendar sync's thread was stopped");
  }

  private failAll(message: string): void {
    for (const handler of [...this.handlers.values()]) handler({ id: 0, error: { name: "Error", message } });
  }

  private ensure(): Worker {
    clearTimeout(this.idleTimer);
    if (this.worker) return this.worker;
    const worker = startWorker(this.limits);
    worker.on("message", (message: FromThread) => this.handlers.get(message.id)?.(message));
    const died = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(`the calendar sync's thread stopped: ${reason}`);
    };
    worker.on("error", (error) => died(error.message));
    worker.on("exit", (code) => died(`exit ${code}`));
    this.worker = worker;
    return worker;
  }

  private post(message: ToThread): void {
    const worker = this.ensure();
    // Held while anything waits on it; never what keeps the process running otherwise.
    worker.ref();
    worker.postMessage(message);
  }

  private idleCheck(): void {
    if (this.handlers.size > 0 || this.openClients > 0 || !this.worker) return;
    this.worker.unref();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.stop(), IDLE_MS);
    this.idleTimer.unref();
  }

  private call<T>(message: Request): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.handlers.set(id, (answer) => {
        this.handlers.delete(id);
        this.idleCheck();
        if ("error" in answer) reject(rebuilt(answer.error));
        else resolve((answer as { result: T }).result);
      });
      try {
        this.post({ ...message, id });
      } catch (error) {
        this.handlers.delete(id);
        reject(error);
      }
    });
  }

  /**
   * A listing read in the thread, a chunk at a time: the thread reads the next chunk while this
   * one is used and sends it only when asked, so at most two chunks wait here.
   */
  private async *stream<T>(
    message: Request,
    onEnd?: (token: string | null | undefined) => void,
  ): AsyncGenerator<T> {
    const id = this.nextId++;
    const queue: { items: T[]; done: boolean; token?: string | null }[] = [];
    let failure: ThreadError | undefined;
    let wake: (() => void) | undefined;
    this.handlers.set(id, (answer) => {
      if ("error" in answer) failure = answer.error;
      else queue.push(answer as { items: T[]; done: boolean; token?: string | null });
      wake?.();
    });
    let finished = false;
    try {
      this.post({ ...message, id });
      for (;;) {
        while (queue.length === 0 && !failure) await new Promise<void>((resolve) => (wake = resolve));
        const chunk = queue.shift();
        if (!chunk) throw rebuilt(failure!);
        if (chunk.done) {
          finished = true;
          onEnd?.(chunk.token);
        } else this.post({ op: "more", id });
        yield* chunk.items;
        if (chunk.done) return;
      }
    } finally {
      this.handlers.delete(id);
      if (!finished && !failure && this.worker) this.post({ op: "cancel", id });
      this.idleCheck();
    }
  }
}

let shared: CalDavThread | undefined;

/**
 * The process's one thread, shared by every CalendarSync in it (the default database's, each
 * tenant's): started at the first sync, stopped when idle, never keeping the process alive.
 */
export function sharedThread(): CalDavThread {
  shared ??= new CalDavThread();
  return shared;
}

/** A CalDAV account whose requests and parsing run in the sync's thread. */
export interface ThreadClient {
  getCtag(url: string): Promise<{ ctag: string | null; syncToken: string | null }>;
  /** RFC 6578 sync-collection; `syncToken` is the new token once read to its end. */
  syncCollection(
    url: string,
    token: string | null,
  ): AsyncIterable<SyncChange> & { readonly syncToken: string | null };
  listObjects(url: string): AsyncIterable<ObjectRef>;
  /** calendar-multiget of `hrefs`, each object expanded over `window`; those the server lacks are left out. */
  fetchExpanded(url: string, hrefs: string[], window: Window, timeZone: string): Promise<ExpandedObject[]>;
  close(): void;
}
