// An HTTP proxy in front of a real server (Radicale, in the calendar tests) that misbehaves on
// demand, switchable while a test runs: it forwards, answers a chosen status, stalls (accepts
// and never answers), sends the head and part of the body then stalls or closes, or refuses
// connections altogether. For "the server errors", "hangs", "goes away mid-sync" without
// mocking the client's HTTP.
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type HttpFault =
  /** Passes requests and responses through unchanged. */
  | { kind: "forward" }
  /** Answers this status itself (500, 503, 401…), with a short text body. */
  | { kind: "status"; status: number; headers?: Record<string, string> }
  /** Reads the request and never answers; the connection stays open. */
  | { kind: "stall" }
  /** Forwards the upstream head and the body's first `afterBytes` bytes, then sends nothing more. */
  | { kind: "stall-body"; afterBytes: number }
  /** Forwards the upstream head and the body's first `afterBytes` bytes, then closes the connection. */
  | { kind: "cut"; afterBytes: number };

export interface HttpFaultProxy {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  port: number;
  /** `url` with its scheme, host and port replaced by the proxy's (path and query kept). */
  via(url: string): string;
  /**
   * The behaviour from now on; with `after: n`, the next n requests are still forwarded and the
   * fault applies from the one after (a server that goes away in the middle of a sync).
   */
  set(fault: HttpFault, options?: { after?: number }): void;
  /** Every request received so far, in order. */
  requests: { method: string; path: string; fault: HttpFault["kind"] }[];
  /** Closes every connection and refuses new ones (connection refused) until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startHttpFaultProxy(
  target: string | { host: string; port: number },
): Promise<HttpFaultProxy> {
  const upstream =
    typeof target === "string"
      ? { host: new URL(target).hostname, port: Number(new URL(target).port || 80) }
      : target;
  let fault: HttpFault = { kind: "forward" };
  let forwardFirst = 0;
  const requests: HttpFaultProxy["requests"] = [];
  const sockets = new Set<Socket>();

  const forward = (incoming: IncomingMessage, outgoing: ServerResponse, current: HttpFault) => {
    const proxied = request(
      {
        host: upstream.host,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: `${upstream.host}:${upstream.port}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        if (current.kind === "forward") {
          answer.pipe(outgoing);
          return;
        }
        if (current.kind !== "cut" && current.kind !== "stall-body") return;
        // Pass the head and the first bytes, then stall or cut the connection.
        let sent = 0;
        outgoing.flushHeaders();
        answer.on("data", (chunk: Buffer) => {
          if (sent >= current.afterBytes) return;
          const part = chunk.subarray(0, current.afterBytes - sent);
          sent += part.length;
          outgoing.write(part);
          if (sent < current.afterBytes) return;
          answer.destroy();
          if (current.kind === "cut") {
            // Let the bytes written go out first, then close without finishing the body.
            outgoing.socket?.end();
            setImmediate(() => outgoing.socket?.destroy());
          }
        });
        answer.on("end", () => {
          // A body shorter than afterBytes: cut or stall at its end, still unfinished.
          if (current.kind === "cut") outgoing.socket?.destroy();
        });
      },
    );
    proxied.on("error", () => outgoing.socket?.destroy());
    incoming.pipe(proxied);
  };

  const server = createServer((incoming, outgoing) => {
    const current: HttpFault = forwardFirst > 0 ? { kind: "forward" } : fault;
    if (forwardFirst > 0) forwardFirst--;
    requests.push({ method: incoming.method ?? "", path: incoming.url ?? "", fault: current.kind });
    switch (current.kind) {
      case "status": {
        incoming.resume();
        incoming.on("end", () => {
          outgoing.writeHead(current.status, { "content-type": "text/plain", ...current.headers });
          outgoing.end(`fault proxy: ${current.status}\n`);
        });
        return;
      }
      case "stall":
        incoming.resume();
        return;
      default:
        forward(incoming, outgoing, current);
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const down = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    via(url) {
      const parsed = new URL(url);
      parsed.protocol = "http:";
      parsed.hostname = "127.0.0.1";
      parsed.port = String(port);
      return parsed.href;
    },
    set(next, { after = 0 } = {}) {
      fault = next;
      forwardFirst = after;
    },
    requests,
    down,
    up: () => listen(port),
    close: () => (server.listening ? down() : Promise.resolve()),
  };
}
