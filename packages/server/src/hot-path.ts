// A request listener in front of Fastify's: it answers the one kind of request a service must
// answer at its prototype's speed (the shortener's redirect of a cached short, docs/adr/0240)
// and hands every other request to Fastify untouched. Fastify's routing, request and reply
// objects, child logger, validation and seven hooks cost a redirect about 9 µs of CPU on top of
// the 18 µs the prototype spends (docs/performance.md); what those hooks do for every request
// (request id, planned stop, requests in flight, the duration metric) is done here as well: a
// new global hook that every request must pass is mirrored in `answer`.
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerOptions,
  type ServerResponse,
} from "node:http";
import { performance } from "node:perf_hooks";
import proxyAddr from "@fastify/proxy-addr";
import type { FastifyServerFactory } from "fastify";
import type { fastifyTrustProxy } from "./config.ts";
import { type PlannedStop, type RequestTally, requestId } from "./http.ts";
import type { RequestDurations } from "./metrics.ts";

/** What a hot route answers: a status, its headers (a new object: the request id is added to it), no body. */
export interface HotAnswer {
  status: number;
  headers: OutgoingHttpHeaders;
}

/**
 * Takes a request, synchronously: the work that answers it, or undefined to leave it to Fastify.
 * The work resolves undefined when it finds, after all, that Fastify must answer (nothing of the
 * request was done: Fastify answers it from the start, as if the hot path had not been there).
 * When it fails, Fastify answers too, and its route finds the error with `hotPathFailure`.
 */
export type HotRoute = (request: IncomingMessage) => (() => Promise<HotAnswer | undefined>) | undefined;

export interface HotRouteOptions {
  /** The route pattern Fastify knows these requests by, for the duration metric. */
  pattern: string;
  route: HotRoute;
}

const failures = new WeakMap<IncomingMessage, unknown>();

/**
 * The error a request's hot work failed with, if it did: the route Fastify answers it with throws
 * it, so the service's error handler answers and logs it once (a database that is away is not
 * waited for twice).
 */
export function hotPathFailure(request: IncomingMessage): unknown {
  return failures.get(request);
}

/** What every request gets from the service's hooks, handed over once the app is built. */
export interface HotPathServices {
  plannedStop: PlannedStop;
  tally: RequestTally;
  durations: RequestDurations;
}

/** Client address and host as Fastify's `request.ip` and `request.hostname` give them. */
export interface RequestOrigin {
  ip(request: IncomingMessage): string | undefined;
  hostname(request: IncomingMessage): string;
}

/** The last of a header's comma-separated values (a proxy appends its own). */
const lastEntry = (value: string) => {
  const comma = value.lastIndexOf(",");
  return comma === -1 ? value.trim() : value.slice(comma + 1).trim();
};

/**
 * `request.ip` and `request.hostname` as Fastify computes them for the `trustProxy` option the
 * service gives it (fastifyTrustProxy): X-Forwarded-For and X-Forwarded-Host only from a trusted
 * peer. test/hot-path.test.ts checks them against Fastify's for every kind of TRUST_PROXY.
 */
export function requestOrigin(trustProxy: ReturnType<typeof fastifyTrustProxy>): RequestOrigin {
  const trust =
    typeof trustProxy === "function"
      ? trustProxy
      : trustProxy === true
        ? () => true
        : trustProxy === false
          ? undefined
          : proxyAddr.compile(trustProxy);
  const host = (request: IncomingMessage) => {
    const forwarded = request.headers["x-forwarded-host"];
    const peer = request.socket.remoteAddress;
    if (trust && typeof forwarded === "string" && forwarded && peer !== undefined && trust(peer, 0)) {
      return lastEntry(forwarded);
    }
    return request.headers.host ?? "";
  };
  return {
    ip: trust ? (request) => proxyAddr.all(request, trust).at(-1) : (request) => request.socket.remoteAddress,
    hostname(request) {
      const value = host(request);
      // An IPv6 literal keeps its brackets; a port is dropped.
      if (value[0] === "[") return value.slice(0, value.indexOf("]") + 1);
      const colon = value.indexOf(":");
      return colon === -1 ? value : value.slice(0, colon);
    },
  };
}

/**
 * Fastify's HTTP server with the hot path in front (pass `serverFactory` to Fastify). Until
 * `use` gives it a route and the services, and again once `close` began, Fastify answers all.
 */
export class HotPath {
  private route: HotRouteOptions | undefined;
  private services: HotPathServices | undefined;
  /** Requests the hot path answered (tests and the bench read it). */
  answered = 0;

  use(route: HotRouteOptions, services: HotPathServices): void {
    this.route = route;
    this.services = services;
  }

  /** From the app's preClose on: a closing server's answers are Fastify's (Connection: close). */
  stop(): void {
    this.route = undefined;
  }

  /** Fastify's HTTP/1 server as Fastify makes it (lib/server.js), with this path's listener. */
  readonly serverFactory: FastifyServerFactory = (fastify, fastifyOptions) => {
    // Fastify passes its options with its defaults applied.
    const options = fastifyOptions as unknown as {
      http?: ServerOptions;
      keepAliveTimeout: number;
      requestTimeout: number;
      connectionTimeout: number;
    };
    const server = createServer(options.http ?? {}, (request, response) => {
      const work = this.route?.route(request);
      if (work === undefined) fastify(request, response);
      else void this.answer(request, response, work, fastify);
    });
    server.keepAliveTimeout = options.keepAliveTimeout;
    server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout);
    return server;
  };

  private async answer(
    request: IncomingMessage,
    response: ServerResponse,
    work: () => Promise<HotAnswer | undefined>,
    fastify: (request: IncomingMessage, response: ServerResponse) => void,
  ): Promise<void> {
    const { plannedStop, tally, durations } = this.services!;
    const { pattern } = this.route!;
    const started = performance.now();
    plannedStop.noteRequest(request.url);
    tally.began();
    let answer: HotAnswer | undefined;
    try {
      answer = await work();
    } catch (error) {
      failures.set(request, error);
    }
    tally.ended();
    if (answer === undefined) {
      // Fastify answers it as it answers every request (its error handler, its 503).
      fastify(request, response);
      return;
    }
    const { headers } = answer;
    headers["x-request-id"] = requestId(request);
    headers["content-length"] = "0";
    if (plannedStop.requested) headers.connection = "close";
    response.writeHead(answer.status, headers).end();
    this.answered++;
    durations.observe(pattern, request.method!, answer.status, (performance.now() - started) / 1000);
  }
}
