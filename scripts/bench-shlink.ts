// The rows of `pnpm bench --only shlink` (issue 48): Shlink's GET /rest/v3/short-urls over one
// user's 100,000 shorts (the default page, a search, a tag filter, page 5,000), and the web
// component's load of a short's 1,000,000 visits (itemsPerPage=5000, pages fetched 4 at a time,
// as shlink-web-component's visits loader asks them). Seeded with one INSERT … SELECT
// generate_series each; measured over HTTP against the real shortener.
import type { PrismaClient } from "@app/db";
import { createUser } from "@app/shortener/credentials";

export interface ShlinkFixture {
  token: string;
  /** A term that names one short, one shared by about a 21st of them, and a tag of 200 shorts. */
  rareTerm: string;
  broadTerm: string;
  tag: string;
}

/** One user with `shorts` shorts: names, URLs, a title on every third, two tags each. */
export async function seedShlinkShorts(prisma: PrismaClient, shorts: number): Promise<ShlinkFixture> {
  const stamp = Date.now();
  const user = await createUser(prisma, `bench-shlink-${stamp}@example.com`);
  // 10,000 per statement: one statement for 100,000 would pass the statement timeout.
  for (let first = 1; first <= shorts; first += 10_000) {
    const last = Math.min(shorts, first + 9_999);
    await prisma.$executeRawUnsafe(
      `INSERT INTO "shortener"."shorts" ("id", "user_id", "name", "url", "created_at", "tags", "title")
       SELECT gen_random_uuid(), $1::uuid, 'r${stamp}-' || i, 'https://example.com/articles/' || md5(i::text) || '?ref=' || (i % 1000),
              now() - i * interval '1 minute', ARRAY['t' || (i % 500), 'group' || (i % 7)]::varchar(32)[],
              CASE WHEN i % 3 = 0 THEN 'Article ' || i || ' about ' || (ARRAY['cats','dogs','birds','fish','trees','cars','boats'])[1 + i % 7] END
         FROM generate_series(${first}, ${last}) AS i`,
      user.id,
    );
  }
  await prisma.$executeRawUnsafe(`VACUUM ANALYZE "shortener"."shorts"`);
  return { token: user.token, rareTerm: `-${Math.floor(shorts * 0.42424)}`, broadTerm: "cats", tag: "t42" };
}

/** One user's short with `visits` visit rows, one a second back from now, and their hours. */
export async function seedVisitedShort(
  prisma: PrismaClient,
  visits: number,
): Promise<{ token: string; shortCode: string }> {
  const stamp = Date.now();
  const user = await createUser(prisma, `bench-visits-${stamp}@example.com`);
  const short = await prisma.short.create({
    data: { userId: user.id, name: `visited${stamp}`, url: "https://example.com/" },
  });
  for (let first = 1; first <= visits; first += 250_000) {
    const last = Math.min(visits, first + 249_999);
    await prisma.$executeRawUnsafe(
      `INSERT INTO "shortener"."short_logs" ("short_id", "ip_address", "user_agent", "referer", "created_at", "browser",
         "country", "visited_url", "redirect_url")
       SELECT $1::uuid, '203.0.113.' || (i % 250), 'Mozilla/5.0 (X11; Linux x86_64) agent ' || (i % 97),
              'https://referrer.example/page/' || (i % 1000), now() - i * interval '1 second', 'Firefox', 'FR',
              'http://localhost:3000/visited${stamp}', 'https://example.com/'
         FROM generate_series(${first}, ${last}) AS i`,
      short.id,
    );
  }
  // The rows' hourly aggregates, as the batches that store visits write them beside the rows
  // (Shlink's visit list counts a short's hours: docs/adr/0285).
  await prisma.$executeRawUnsafe(
    `INSERT INTO "shortener"."visit_hours" ("short_id", "hour", "visits", "humans", "visitors")
     SELECT "short_id", date_trunc('hour', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', count(*),
            count(*) FILTER (WHERE NOT "is_bot"), 0
       FROM "shortener"."short_logs" WHERE "short_id" = $1::uuid GROUP BY 1, 2`,
    short.id,
  );
  await prisma.$executeRawUnsafe(`VACUUM ANALYZE "shortener"."short_logs"`);
  return { token: user.token, shortCode: short.name };
}

/**
 * The web component's load of a short's visits: page 1 of 5,000, then the other pages 4 at a
 * time. How long it took from the first request to the last answer, and each page's time.
 */
export async function loadAllVisits(
  shortenerUrl: string,
  { token, shortCode }: { token: string; shortCode: string },
): Promise<{ ms: number; pages: number; items: number; pageMs: number[]; statuses: Record<string, number> }> {
  const pageMs: number[] = [];
  const statuses: Record<string, number> = {};
  const get = async (page: number) => {
    const started = performance.now();
    const response = await fetch(
      `${shortenerUrl}/rest/v3/short-urls/${shortCode}/visits?page=${page}&itemsPerPage=5000`,
      { headers: { "x-api-key": token } },
    );
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    const body = (await response.json()) as {
      visits?: { data: unknown[]; pagination: { pagesCount: number } };
    };
    pageMs.push(performance.now() - started);
    return body.visits ?? { data: [], pagination: { pagesCount: 0 } };
  };
  const started = performance.now();
  const first = await get(1);
  let items = first.data.length;
  const pages = first.pagination.pagesCount;
  for (let page = 2; page <= pages; page += 4) {
    const batch = Array.from({ length: Math.min(4, pages - page + 1) }, (_, i) => get(page + i));
    for (const answer of await Promise.all(batch)) items += answer.data.length;
  }
  return { ms: performance.now() - started, pages, items, pageMs, statuses };
}
