// GET /teams/{id}/event-types, v1's route for the event types of one team: an action of the teams
// resource. Here too are event types' relation selects, which it shares with the event-types
// resource (kept apart from both, so neither module imports the other).
import { CustomInput, EventType, TeamEventTypesQuery } from "@app/schemas/scheduling";
import { z } from "zod";
import { type CustomOperation, selectOf } from "./resource.ts";

/** What an event type shows of its relations. */
export const eventTypeRelations = {
  hosts: {
    select: { userId: true, isFixed: true, scheduleId: true, priority: true, weight: true },
    orderBy: { userId: "asc" },
  },
  customInputs: { select: selectOf(CustomInput), orderBy: { id: "asc" } },
} as const;

const select = { ...selectOf(EventType, eventTypeRelations), id: true };

export const listTeamEventTypes: CustomOperation = {
  summary: "List the event types of a team you belong to",
  description:
    "v1's route: the team's event types, as `GET /event-types` shows them. A team you are not a member of " +
    "(invited counts, as for `GET /teams/{id}`) is 404, as that route answers; v1 answered an empty list.",
  querystring: TeamEventTypesQuery,
  response: z.object({ event_types: z.array(EventType) }),
  errors: [400, 401, 404, 429],
  async handle(ctx, { id, query }) {
    const team = await ctx.loadVisible(id);
    const { page, take } = query as z.output<typeof TeamEventTypesQuery>;
    const rows = await ctx.db.eventType.findMany({
      where: { teamId: team.id as number },
      select,
      orderBy: { id: "asc" },
      skip: (page - 1) * take,
      take,
    });
    return { event_types: rows };
  },
};
