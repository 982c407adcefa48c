// http_request_duration_seconds is observed without prom-client's Histogram (its per-observation
// label hashing cost the redirect ~1 µs): its export must be the Histogram's, line for line.
import Fastify from "fastify";
import { Histogram, Registry } from "prom-client";
import { expect, it } from "vitest";
import { instrumentRequests } from "../src/metrics.ts";

it("exports request durations exactly as prom-client's Histogram would, as text and as JSON", async () => {
  const ours = new Registry();
  const theirs = new Registry();
  for (const registry of [ours, theirs]) registry.setDefaultLabels({ service: "test" });
  const durations = instrumentRequests(Fastify(), ours);
  const histogram = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from the request's arrival to the response, by route, method and status",
    labelNames: ["route", "method", "status_code"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [theirs],
  });
  const observations: [string, string, number, number][] = [
    ["/:name", "GET", 302, 0.0004],
    ["/:name", "GET", 302, 0.001],
    ["/:name", "GET", 302, 0.0031],
    ["/:name", "HEAD", 302, 7],
    ["/api/shorts", "POST", 201, 0.02],
    ["(unmatched)", "GET", 404, 0.25],
    ["/:name", "GET", 302, 5],
  ];
  for (const [route, method, status, seconds] of observations) {
    durations.observe(route, method, status, seconds);
    histogram.observe({ route, method, status_code: String(status) }, seconds);
  }
  expect(await ours.metrics()).toBe(await theirs.metrics());
  expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  ours.resetMetrics();
  theirs.resetMetrics();
  expect(await ours.metrics()).toBe(await theirs.metrics());
});
