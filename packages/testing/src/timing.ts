// How long a test waits for what the product does at once but asynchronously.

/**
 * `vi.waitFor` options for something that follows soon without being awaited: a notification
 * between instances, a write off the request path, a reconnect. The wait ends as soon as the
 * condition holds; the bound only decides when a test gives up, and a loaded two-core CI
 * machine can take seconds for what takes milliseconds here. Where a test tells a notification
 * from a cache's expiry, it waits less than the expiry instead.
 */
export const SOON = { timeout: 10_000, interval: 20 } as const;
