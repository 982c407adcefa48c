// The calendar sync's thread (caldav-thread.ts, docs/adr/0289): CalDAV accounts, their requests
// and the expansion of what they answer. It holds no database connection; what it reads goes back
// to the instance's thread a listing chunk or a multiget at a time.
import v8 from "node:v8";
import { parentPort } from "node:worker_threads";
import { CalDavClient } from "./caldav-client.ts";
import { type FromThread, LISTING_CHUNK, type ToThread, threadError, type Window } from "./caldav-thread.ts";
import { type ExpandedObject, expandObject } from "./object-busy.ts";

const port = parentPort!;
const clients = new Map<number, CalDavClient>();
const streams = new Map<number, { more(): void; cancel(): void }>();

const send = (message: FromThread) => port.postMessage(message);

function clientOf(id: number): CalDavClient {
  const client = clients.get(id);
  if (!client) throw new Error("the calendar sync's thread was restarted: this account is gone");
  return client;
}

function expanded(
  href: string,
  etag: string,
  data: string,
  window: Window,
  timeZone: string,
): ExpandedObject {
  return {
    href,
    etag,
    ...expandObject(data, { from: new Date(window.from), to: new Date(window.to) }, timeZone),
  };
}

/** Sends a listing LISTING_CHUNK entries a message, each once the other side asked for it. */
async function stream<T>(id: number, items: AsyncIterable<T>, token?: () => string | null): Promise<void> {
  let credit = 1;
  let cancelled = false;
  let wake: (() => void) | undefined;
  streams.set(id, {
    more() {
      credit++;
      wake?.();
    },
    cancel() {
      cancelled = true;
      wake?.();
    },
  });
  const sent = async (chunk: T[], done: boolean) => {
    while (credit === 0 && !cancelled) await new Promise<void>((resolve) => (wake = resolve));
    if (cancelled) return false;
    credit--;
    send({ id, items: chunk, done, ...(done && token ? { token: token() } : {}) });
    return true;
  };
  try {
    let chunk: T[] = [];
    for await (const item of items) {
      if (cancelled) return;
      chunk.push(item);
      if (chunk.length === LISTING_CHUNK) {
        if (!(await sent(chunk, false))) return;
        chunk = [];
      }
    }
    await sent(chunk, true);
  } finally {
    streams.delete(id);
  }
}

async function handle(message: ToThread): Promise<void> {
  switch (message.op) {
    case "open":
      clients.set(message.client, new CalDavClient(message.options));
      return;
    case "close":
      clients.get(message.client)?.close();
      clients.delete(message.client);
      return;
    case "more":
      streams.get(message.id)?.more();
      return;
    case "cancel":
      streams.get(message.id)?.cancel();
      return;
  }
  try {
    switch (message.op) {
      case "ctag":
        send({ id: message.id, result: await clientOf(message.client).getCtag(message.url) });
        return;
      case "sync": {
        const sync = clientOf(message.client).syncCollection(message.url, message.token);
        await stream(message.id, sync, () => sync.syncToken);
        return;
      }
      case "list":
        await stream(message.id, clientOf(message.client).listObjects(message.url));
        return;
      case "fetch": {
        const objects: ExpandedObject[] = [];
        const { window, timeZone } = message;
        for await (const item of clientOf(message.client).multiget(message.url, message.hrefs)) {
          if ("data" in item) objects.push(expanded(item.href, item.etag ?? "", item.data, window, timeZone));
          else if ("tooLarge" in item)
            objects.push({ href: item.href, etag: item.etag ?? "", pieces: [], keep: null, tooLarge: true });
          // A missing one (404) went between the listing and now: the next sync removes it.
        }
        send({ id: message.id, result: objects });
        return;
      }
      case "heap": {
        const heap = v8.getHeapStatistics();
        send({ id: message.id, result: { limit: heap.heap_size_limit, used: heap.used_heap_size } });
        return;
      }
      case "expand":
        send({
          id: message.id,
          result: message.objects.map((object) =>
            expanded(object.href, object.etag, object.data, message.window, message.timeZone),
          ),
        });
        return;
    }
  } catch (error) {
    send({ id: message.id, error: threadError(error) });
  }
}

port.on("message", (message: ToThread) => void handle(message));
