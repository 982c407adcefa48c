// `pnpm start` serves both APIs from one process: each document must describe its own API only.
import { createPrisma } from "@app/db";
import { buildApp as buildScheduling } from "@app/scheduling";
import { loadConfig as schedulingConfig } from "@app/scheduling/config";
import { buildApp as buildShortener } from "@app/shortener";
import { defaultConfig as shortenerConfig } from "@app/shortener/config";
import { expect, it } from "vitest";

it("keeps each service's OpenAPI components to its own schemas when both run in one process", async () => {
  // Neither document needs the database: the client connects on its first query.
  const prisma = createPrisma("postgresql://nobody@127.0.0.1:1/never", { poolMax: 1 });
  const shortener = await buildShortener({ config: shortenerConfig(), prisma });
  const scheduling = await buildScheduling({ config: schedulingConfig({}), prisma });
  try {
    const components = async (app: typeof shortener | typeof scheduling) =>
      Object.keys((await app.inject({ url: "/docs" })).json().components.schemas);
    const short = await components(shortener);
    const sched = await components(scheduling);
    expect(short).toEqual(expect.arrayContaining(["Short", "ShortLog", "NewShort", "User", "Error"]));
    expect(sched).toEqual(expect.arrayContaining(["Attendee", "Payment"]));
    expect(short.filter((name) => sched.includes(name))).toEqual([]);
  } finally {
    await shortener.close();
    await scheduling.close();
    await prisma.$disconnect();
  }
});
