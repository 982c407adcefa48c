// Team roles: who may edit and delete a team, manage its memberships, and change its event
// types. A row someone can see but not change is 403, and stays as it was.
import type { MembershipRole } from "@app/db";
import { SOON } from "@app/testing/timing";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { setupApp } from "./helpers.ts";
import { apiClient, type Caller, newUser, unique } from "./resource-fixtures.ts";

const t = setupApp();
const call = apiClient(t);

interface TeamWorld {
  teamId: number;
  owner: Caller;
  admin: Caller;
  member: Caller;
  invitee: Caller;
  stranger: Caller;
  siteAdmin: Caller;
}

let world: TeamWorld;

async function join(teamId: number, caller: Caller, role: MembershipRole, accepted = true) {
  await t.prisma.membership.create({ data: { teamId, userId: caller.user.id, role, accepted } });
}

/** A team made through the API by its owner, with an ADMIN, a MEMBER and an unaccepted invitee. */
beforeEach(async () => {
  const owner = await newUser(t.prisma);
  const created = await call("POST", "/api/v1/teams", owner, { name: "Platform" });
  expect(created.status, created.text).toBe(201);
  const teamId = (created.body.team as { id: number }).id;
  const [admin, member, invitee, stranger, siteAdmin] = await Promise.all([
    newUser(t.prisma),
    newUser(t.prisma),
    newUser(t.prisma),
    newUser(t.prisma),
    newUser(t.prisma, { admin: true }),
  ]);
  await join(teamId, admin, "ADMIN");
  await join(teamId, member, "MEMBER");
  await join(teamId, invitee, "MEMBER", false);
  world = { teamId, owner, admin, member, invitee, stranger, siteAdmin };
});

const team = () => t.prisma.team.findUniqueOrThrow({ where: { id: world.teamId } });
const membership = (caller: Caller) =>
  t.prisma.membership.findUnique({
    where: { userId_teamId: { userId: caller.user.id, teamId: world.teamId } },
  });
const membershipUrl = (caller: Caller) => `/api/v1/memberships/${caller.user.id}_${world.teamId}`;

describe("teams", () => {
  it("needs only a name; the creator becomes its accepted OWNER in the same write", async () => {
    const creator = await newUser(t.prisma);
    const response = await call("POST", "/api/v1/teams", creator, { name: "  Solo  " });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      team: { name: "Solo", slug: null, isPrivate: false, timeZone: "Europe/London", weekStart: "Sunday" },
      message: "Team created successfully",
    });
    const teamId = (response.body.team as { id: number }).id;
    expect(await t.prisma.membership.findMany({ where: { teamId } })).toEqual([
      expect.objectContaining({ userId: creator.user.id, role: "OWNER", accepted: true }),
    ]);
  });

  it("keeps slugs unique regardless of case: 409 on create and on edit", async () => {
    const creator = await newUser(t.prisma);
    const slug = unique("Acme");
    const first = await call("POST", "/api/v1/teams", creator, { name: "Acme", slug });
    expect(first.status).toBe(201);
    expect((first.body.team as { slug: string }).slug).toBe(slug.toLowerCase());
    const clash = await call("POST", "/api/v1/teams", creator, { name: "Acme 2", slug: slug.toUpperCase() });
    expect(clash.status).toBe(409);
    // A slug stored in another case (e.g. migrated from cal.com) clashes too: the column is citext.
    const mixed = unique("MiXeD");
    await t.prisma.team.create({ data: { name: "Imported", slug: mixed } });
    expect(
      (await call("POST", "/api/v1/teams", creator, { name: "x", slug: mixed.toLowerCase() })).status,
    ).toBe(409);
    const edit = await call("PATCH", `/api/v1/teams/${world.teamId}`, world.owner, {
      slug: slug.toUpperCase(),
    });
    expect(edit.status).toBe(409);
    expect((await team()).slug).toBeNull();
  });

  it("is visible to every member, even one who has not accepted yet, and not to others", async () => {
    for (const caller of [world.owner, world.admin, world.member, world.invitee, world.siteAdmin]) {
      expect((await call("GET", `/api/v1/teams/${world.teamId}`, caller)).status).toBe(200);
      if (caller !== world.siteAdmin) {
        const listed = await call("GET", "/api/v1/teams", caller);
        expect((listed.body.teams as { id: number }[]).map((row) => row.id)).toEqual([world.teamId]);
      }
    }
    expect((await call("GET", `/api/v1/teams/${world.teamId}`, world.stranger)).status).toBe(404);
  });

  it("is edited by its OWNER, an ADMIN or a site admin; a MEMBER or invitee gets 403 and changes nothing", async () => {
    for (const caller of [world.member, world.invitee]) {
      const before = await team();
      const response = await call("PATCH", `/api/v1/teams/${world.teamId}`, caller, { name: "Hijacked" });
      expect(response.status).toBe(403);
      expect(await team()).toEqual(before);
    }
    for (const [caller, name] of [
      [world.owner, "By owner"],
      [world.admin, "By admin"],
      [world.siteAdmin, "By site admin"],
    ] as const) {
      const response = await call("PATCH", `/api/v1/teams/${world.teamId}`, caller, { name });
      expect(response.status, response.text).toBe(200);
      expect((await team()).name).toBe(name);
    }
  });

  it("is deleted only by its OWNER (or a site admin)", async () => {
    for (const caller of [world.admin, world.member, world.invitee]) {
      expect((await call("DELETE", `/api/v1/teams/${world.teamId}`, caller)).status).toBe(403);
      expect(await team()).toBeTruthy();
    }
    expect((await call("DELETE", `/api/v1/teams/${world.teamId}`, world.stranger)).status).toBe(404);
    const deleted = await call("DELETE", `/api/v1/teams/${world.teamId}`, world.owner);
    expect(deleted.body).toEqual({ message: `Team with id: ${world.teamId} deleted successfully` });
    expect(await t.prisma.membership.count({ where: { teamId: world.teamId } })).toBe(0);
  });

  it("lets a site admin create a team for another user (ownerId), who becomes its OWNER", async () => {
    const response = await call("POST", "/api/v1/teams", world.siteAdmin, {
      name: "For someone",
      ownerId: world.stranger.user.id,
    });
    expect(response.status).toBe(201);
    const teamId = (response.body.team as { id: number }).id;
    expect(await t.prisma.membership.findMany({ where: { teamId } })).toEqual([
      expect.objectContaining({ userId: world.stranger.user.id, role: "OWNER", accepted: true }),
    ]);
  });
});

describe("memberships", () => {
  it("are read by composite id <userId>_<teamId>; every member sees the team's memberships", async () => {
    const read = await call("GET", membershipUrl(world.member), world.invitee);
    expect(read.status).toBe(200);
    expect(read.body.membership).toMatchObject({
      userId: world.member.user.id,
      teamId: world.teamId,
      role: "MEMBER",
      accepted: true,
    });
    const listed = await call("GET", `/api/v1/memberships?teamId=${world.teamId}`, world.member);
    expect((listed.body.memberships as unknown[]).length).toBe(4);
    expect((await call("GET", membershipUrl(world.member), world.stranger)).status).toBe(404);
    // A well-formed id for a pair with no membership.
    expect(
      (await call("GET", `/api/v1/memberships/${world.stranger.user.id}_${world.teamId}`, world.owner))
        .status,
    ).toBe(404);
  });

  it("can be created by a team OWNER or ADMIN (not by a MEMBER; a stranger does not see the team)", async () => {
    const newcomer = await newUser(t.prisma);
    const body = { teamId: world.teamId, userId: newcomer.user.id };
    expect((await call("POST", "/api/v1/memberships", world.member, body)).status).toBe(403);
    expect((await call("POST", "/api/v1/memberships", world.stranger, body)).status).toBe(404);
    expect(await membership(newcomer)).toBeNull();

    const created = await call("POST", "/api/v1/memberships", world.admin, body);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      membership: { ...body, role: "MEMBER", accepted: false },
      message: "Membership created successfully",
    });
    expect((await call("POST", "/api/v1/memberships", world.owner, body)).status).toBe(409);
  });

  it("refuses an inviter accepting for the invitee, an ADMIN giving OWNER, and unknown users", async () => {
    const newcomer = await newUser(t.prisma);
    const body = { teamId: world.teamId, userId: newcomer.user.id };
    expect((await call("POST", "/api/v1/memberships", world.owner, { ...body, accepted: true })).status).toBe(
      403,
    );
    expect((await call("POST", "/api/v1/memberships", world.admin, { ...body, role: "OWNER" })).status).toBe(
      403,
    );
    expect(await membership(newcomer)).toBeNull();
    const ghost = await call("POST", "/api/v1/memberships", world.owner, { ...body, userId: 2147483647 });
    expect(ghost.status).toBe(404);
    expect(ghost.body.message).toBe("User with id: 2147483647 not found");
    expect((await call("POST", "/api/v1/memberships", world.owner, { ...body, role: "OWNER" })).status).toBe(
      201,
    );
  });

  it("is accepted only by the invited user", async () => {
    for (const caller of [world.owner, world.admin, world.member]) {
      expect((await call("PATCH", membershipUrl(world.invitee), caller, { accepted: true })).status).toBe(
        403,
      );
    }
    expect((await membership(world.invitee))?.accepted).toBe(false);
    const accepted = await call("PATCH", membershipUrl(world.invitee), world.invitee, { accepted: true });
    expect(accepted.status).toBe(200);
    expect((await membership(world.invitee))?.accepted).toBe(true);
  });

  it("changes roles by OWNER or ADMIN; only an OWNER gives or takes OWNER", async () => {
    const before = await membership(world.member);
    expect((await call("PATCH", membershipUrl(world.owner), world.member, { role: "MEMBER" })).status).toBe(
      403,
    );
    expect((await call("PATCH", membershipUrl(world.member), world.member, { role: "ADMIN" })).status).toBe(
      403,
    );
    expect((await call("PATCH", membershipUrl(world.member), world.admin, { role: "OWNER" })).status).toBe(
      403,
    );
    expect((await call("PATCH", membershipUrl(world.owner), world.admin, { role: "MEMBER" })).status).toBe(
      403,
    );
    expect(await membership(world.member)).toEqual(before);
    expect((await membership(world.owner))?.role).toBe("OWNER");

    expect((await call("PATCH", membershipUrl(world.member), world.admin, { role: "ADMIN" })).status).toBe(
      200,
    );
    expect((await membership(world.member))?.role).toBe("ADMIN");
    expect((await call("PATCH", membershipUrl(world.member), world.owner, { role: "OWNER" })).status).toBe(
      200,
    );
    expect((await membership(world.member))?.role).toBe("OWNER");
  });

  it("changes another member's role only when ranked above them, as for removing them", async () => {
    const owner = await newUser(t.prisma);
    const teamId = (
      (await call("POST", "/api/v1/teams", owner, { name: "Ranks" })).body.team as { id: number }
    ).id;
    const [first, second] = await Promise.all([newUser(t.prisma), newUser(t.prisma)]);
    await join(teamId, first, "ADMIN");
    await join(teamId, second, "ADMIN");
    const url = `/api/v1/memberships/${second.user.id}_${teamId}`;
    const demote = await call("PATCH", url, first, { role: "MEMBER" });
    expect(demote.status).toBe(403);
    expect(demote.body.message).toBe("Only an OWNER or ADMIN ranked above the member can change their role");
    expect((await call("DELETE", url, first)).status).toBe(403);
    const stored = await t.prisma.membership.findFirst({ where: { teamId, userId: second.user.id } });
    expect(stored?.role).toBe("ADMIN");
    expect((await call("PATCH", url, owner, { role: "MEMBER" })).status).toBe(200);
  });

  it("is removed by the member themself, or by someone ranked above them", async () => {
    expect((await call("DELETE", membershipUrl(world.invitee), world.member)).status).toBe(403);
    expect((await call("DELETE", membershipUrl(world.owner), world.admin)).status).toBe(403);
    expect(await membership(world.invitee)).not.toBeNull();
    expect(await membership(world.owner)).not.toBeNull();

    const removed = await call("DELETE", membershipUrl(world.member), world.admin);
    expect(removed.body).toEqual({
      message: `Membership with id: ${world.member.user.id}_${world.teamId} deleted successfully`,
    });
    expect((await call("DELETE", membershipUrl(world.invitee), world.invitee)).status).toBe(200);
    expect((await call("DELETE", membershipUrl(world.admin), world.owner)).status).toBe(200);
    expect(await t.prisma.membership.count({ where: { teamId: world.teamId } })).toBe(1);
  });

  it("filters an admin's list by member (userId) and team (teamId)", async () => {
    const byMember = await call("GET", `/api/v1/memberships?userId=${world.member.user.id}`, world.siteAdmin);
    expect(byMember.body.memberships).toEqual([
      expect.objectContaining({ userId: world.member.user.id, teamId: world.teamId }),
    ]);
    const byTeam = await call(
      "GET",
      `/api/v1/memberships?teamId=${world.teamId}&teamId=2147483647`,
      world.siteAdmin,
    );
    expect((byTeam.body.memberships as unknown[]).length).toBe(4);
  });
});

describe("team event types", () => {
  const create = (caller: Caller, extra: object = {}) =>
    call("POST", "/api/v1/event-types", caller, {
      title: "Team call",
      slug: unique("team-call"),
      length: 30,
      teamId: world.teamId,
      ...extra,
    });

  it("are created by a team OWNER or ADMIN, belong to the team (userId null), and need a member's role", async () => {
    expect((await create(world.member)).status).toBe(403);
    expect((await create(world.invitee)).status).toBe(403);
    expect((await create(world.stranger)).status).toBe(404);
    const created = await create(world.admin);
    expect(created.status, created.text).toBe(201);
    expect(created.body.event_type).toMatchObject({ teamId: world.teamId, userId: null });
    const both = await create(world.siteAdmin, { userId: world.member.user.id });
    expect(both.status).toBe(400);
  });

  it("are read by every member, changed only by OWNER or ADMIN (403 for a MEMBER, unchanged)", async () => {
    const created = await create(world.owner);
    const eventType = created.body.event_type as { id: number };
    const url = `/api/v1/event-types/${eventType.id}`;
    expect((await call("GET", url, world.member)).status).toBe(200);
    const listed = await call("GET", "/api/v1/event-types", world.member);
    expect((listed.body.event_types as { id: number }[]).map((row) => row.id)).toContain(eventType.id);
    expect((await call("GET", url, world.stranger)).status).toBe(404);

    const before = await t.prisma.eventType.findUnique({ where: { id: eventType.id } });
    expect((await call("PATCH", url, world.member, { title: "Mine now" })).status).toBe(403);
    expect((await call("DELETE", url, world.member)).status).toBe(403);
    expect(await t.prisma.eventType.findUnique({ where: { id: eventType.id } })).toEqual(before);

    expect((await call("PATCH", url, world.admin, { title: "Renamed" })).status).toBe(200);
    expect((await call("DELETE", url, world.admin)).status).toBe(200);
  });

  it("have custom inputs a MEMBER can read but not add or change", async () => {
    const eventType = (await create(world.owner)).body.event_type as { id: number };
    const body = { eventTypeId: eventType.id, label: "Why?", type: "TEXTLONG" };
    expect((await call("POST", "/api/v1/custom-inputs", world.member, body)).status).toBe(403);
    const created = await call("POST", "/api/v1/custom-inputs", world.admin, body);
    expect(created.status).toBe(201);
    const input = created.body.event_type_custom_input as { id: number };
    const url = `/api/v1/custom-inputs/${input.id}`;
    expect((await call("GET", url, world.member)).status).toBe(200);
    expect((await call("PATCH", url, world.member, { label: "Mine" })).status).toBe(403);
    expect((await call("DELETE", url, world.member)).status).toBe(403);
    expect((await t.prisma.eventTypeCustomInput.findUnique({ where: { id: input.id } }))?.label).toBe("Why?");
  });

  it("take accepted team members as hosts, and no one else", async () => {
    const hosts = [{ userId: world.admin.user.id, isFixed: true }, { userId: world.member.user.id }];
    const created = await create(world.owner, { hosts });
    expect(created.status, created.text).toBe(201);
    expect((created.body.event_type as { hosts: unknown }).hosts).toEqual([
      {
        userId: Math.min(world.admin.user.id, world.member.user.id),
        isFixed: expect.any(Boolean),
        scheduleId: null,
        priority: null,
        weight: null,
      },
      {
        userId: Math.max(world.admin.user.id, world.member.user.id),
        isFixed: expect.any(Boolean),
        scheduleId: null,
        priority: null,
        weight: null,
      },
    ]);
    for (const outsider of [world.invitee, world.stranger]) {
      const refused = await create(world.owner, { hosts: [{ userId: outsider.user.id }] });
      expect(refused.status).toBe(400);
      expect(refused.body.issues).toEqual([expect.objectContaining({ path: "hosts.0.userId" })]);
    }
  });

  it("stop being hosted by a member who leaves, is removed or un-accepts, in that team only (hosts are accepted members)", async () => {
    await join(world.teamId, world.stranger, "MEMBER");
    const everyone = [world.owner, world.admin, world.member, world.stranger];
    const hosts = everyone.map((caller) => ({ userId: caller.user.id }));
    const here: number[] = [];
    for (const extra of [{}, { schedulingType: "ROUND_ROBIN" }]) {
      const created = await create(world.owner, { hosts, ...extra });
      expect(created.status, created.text).toBe(201);
      here.push((created.body.event_type as { id: number }).id);
    }
    // The same people host in another team, where they stay members.
    const other = await call("POST", "/api/v1/teams", world.owner, { name: "Elsewhere" });
    const otherTeamId = (other.body.team as { id: number }).id;
    for (const caller of everyone.slice(1)) await join(otherTeamId, caller, "MEMBER");
    const there = await call("POST", "/api/v1/event-types", world.owner, {
      title: "Other call",
      slug: unique("other-call"),
      length: 30,
      teamId: otherTeamId,
      hosts,
    });
    expect(there.status, there.text).toBe(201);
    const thereId = (there.body.event_type as { id: number }).id;
    const hostsOf = async (eventTypeId: number) =>
      (await t.prisma.host.findMany({ where: { eventTypeId }, orderBy: { userId: "asc" } })).map(
        (host) => host.userId,
      );
    const ids = (callers: Caller[]) => callers.map((caller) => caller.user.id).sort((a, b) => a - b);

    // A role change keeps an accepted member a host.
    expect((await call("PATCH", membershipUrl(world.admin), world.owner, { role: "MEMBER" })).status).toBe(
      200,
    );
    for (const id of here) expect(await hostsOf(id)).toEqual(ids(everyone));

    expect((await call("DELETE", membershipUrl(world.member), world.member)).status).toBe(200);
    expect((await call("DELETE", membershipUrl(world.stranger), world.owner)).status).toBe(200);
    expect((await call("PATCH", membershipUrl(world.admin), world.admin, { accepted: false })).status).toBe(
      200,
    );
    for (const id of here) expect(await hostsOf(id)).toEqual([world.owner.user.id]);
    expect(await hostsOf(thereId)).toEqual(ids(everyone));
  });

  it("are checked under the team's lock on create too: a member leaving meanwhile is not made a host", async () => {
    // A membership change holds the team's row (as every one does) while the create is sent;
    // the member is gone once it commits. The create checked its hosts without waiting before.
    let creating: ReturnType<typeof call> | undefined;
    await t.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT "id" FROM "scheduling"."teams" WHERE "id" = ${world.teamId} FOR UPDATE`;
        creating = call("POST", "/api/v1/event-types", world.owner, {
          title: "Race",
          slug: unique("race"),
          length: 30,
          teamId: world.teamId,
          hosts: [{ userId: world.owner.user.id }, { userId: world.member.user.id }],
        });
        await vi.waitFor(async () => {
          const [locked] = await t.prisma.$queryRaw<{ waiting: number }[]>`
            SELECT count(*)::int AS "waiting" FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`;
          expect(locked!.waiting).toBeGreaterThan(0);
        }, SOON);
        await tx.membership.delete({
          where: { userId_teamId: { userId: world.member.user.id, teamId: world.teamId } },
        });
      },
      { timeout: 20_000 },
    );
    const created = await creating!;
    expect(created.status, created.text).toBe(400);
    expect(await t.prisma.host.count({ where: { userId: world.member.user.id } })).toBe(0);
  });
});

describe("invariants", () => {
  it("keeps an accepted OWNER in every team: the last one can neither leave nor step down until another is OWNER", async () => {
    const owner = await newUser(t.prisma);
    const teamId = (
      (await call("POST", "/api/v1/teams", owner, { name: "Solo" })).body.team as { id: number }
    ).id;
    const url = `/api/v1/memberships/${owner.user.id}_${teamId}`;
    const stepDown = await call("PATCH", url, owner, { role: "ADMIN" });
    expect(stepDown.status).toBe(409);
    expect(stepDown.body.message).toContain("make another member OWNER first, or delete the team");
    expect((await call("DELETE", url, owner)).status).toBe(409);
    const siteAdmin = await newUser(t.prisma, { admin: true });
    expect((await call("DELETE", url, siteAdmin)).status).toBe(409);
    expect(await t.prisma.membership.count({ where: { teamId } })).toBe(1);

    const heir = await newUser(t.prisma);
    await join(teamId, heir, "OWNER");
    expect((await call("PATCH", url, owner, { role: "ADMIN" })).status).toBe(200);
    expect((await call("DELETE", url, owner)).status).toBe(200);
  });

  it("keeps an accepted OWNER when the last one un-accepts their membership (409), as when they leave", async () => {
    const owner = await newUser(t.prisma);
    const teamId = (
      (await call("POST", "/api/v1/teams", owner, { name: "Unaccepted" })).body.team as { id: number }
    ).id;
    const url = `/api/v1/memberships/${owner.user.id}_${teamId}`;
    const unaccept = await call("PATCH", url, owner, { accepted: false });
    expect(unaccept.status).toBe(409);
    expect(unaccept.body.message).toContain("make another member OWNER first, or delete the team");
    expect(await t.prisma.membership.count({ where: { teamId, role: "OWNER", accepted: true } })).toBe(1);
    // Re-accepting an accepted membership, or un-accepting with another OWNER left, is fine.
    expect((await call("PATCH", url, owner, { accepted: true })).status).toBe(200);
    const heir = await newUser(t.prisma);
    await join(teamId, heir, "OWNER");
    expect((await call("PATCH", url, owner, { accepted: false })).status).toBe(200);
  });

  it("refuses to delete a user who is the last OWNER of a team, saying what to do", async () => {
    const owner = await newUser(t.prisma);
    const teamId = (
      (await call("POST", "/api/v1/teams", owner, { name: "Kept" })).body.team as { id: number }
    ).id;
    const deleted = await call("DELETE", `/api/v1/users/${owner.user.id}`, owner);
    expect(deleted.status).toBe(409);
    expect(deleted.body.message).toBe(
      `User ${owner.user.id} is the last OWNER of team ${teamId}: make another member OWNER or delete the team first`,
    );
    expect(await t.prisma.user.findUnique({ where: { id: owner.user.id } })).not.toBeNull();
    expect((await call("DELETE", `/api/v1/teams/${teamId}`, owner)).status).toBe(200);
    expect((await call("DELETE", `/api/v1/users/${owner.user.id}`, owner)).status).toBe(200);
  });

  it("keeps an OWNER when the two OWNERs step down or leave at the same instant (20 times each way)", async () => {
    for (let round = 0; round < 20; round++) {
      const [first, second] = await Promise.all([newUser(t.prisma), newUser(t.prisma)]);
      const teamId = (
        (await call("POST", "/api/v1/teams", first, { name: `Duo ${round}` })).body.team as { id: number }
      ).id;
      await join(teamId, second, "OWNER");
      const urlOf = (caller: Caller) => `/api/v1/memberships/${caller.user.id}_${teamId}`;
      // Even rounds: both demote themselves; odd rounds: both leave.
      const leave = round % 2 === 1;
      const answers = await Promise.all(
        [first, second].map((caller) =>
          leave
            ? call("DELETE", urlOf(caller), caller)
            : call("PATCH", urlOf(caller), caller, { role: "ADMIN" }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const refused = answers.find((answer) => answer.status === 409)!;
      expect(refused.body.message).toContain("make another member OWNER first, or delete the team");
      expect(await t.prisma.membership.count({ where: { teamId, role: "OWNER", accepted: true } })).toBe(1);
    }
  });

  it("answers its OWNER 404, never 403, once a concurrent request has deleted the team (5 deletes and 5 edits at once, 5 times)", async () => {
    for (let round = 0; round < 5; round++) {
      const owner = await newUser(t.prisma);
      const created = await call("POST", "/api/v1/teams", owner, { name: `Doomed ${round}` });
      const teamId = (created.body.team as { id: number }).id;
      const url = `/api/v1/teams/${teamId}`;
      const answers = await Promise.all([
        ...Array.from({ length: 5 }, () => call("DELETE", url, owner)),
        ...Array.from({ length: 5 }, (_, i) => call("PATCH", url, owner, { name: `Renamed ${i}` })),
      ]);
      const report = answers.map((answer) => `${answer.status} ${answer.body.message ?? ""}`).join("\n");
      const deletes = answers.slice(0, 5).map((answer) => answer.status);
      expect(deletes.sort(), report).toEqual([200, 404, 404, 404, 404]);
      for (const edit of answers.slice(5)) expect([200, 404], report).toContain(edit.status);
      expect(await t.prisma.team.findUnique({ where: { id: teamId } })).toBeNull();
    }
  });

  it("keeps an ADMIN when the two ADMINs demote each other at the same instant", async () => {
    await t.prisma.user.updateMany({ where: { role: "ADMIN" }, data: { role: "USER" } });
    for (let round = 0; round < 10; round++) {
      const [one, two] = await Promise.all([
        newUser(t.prisma, { admin: true }),
        newUser(t.prisma, { admin: true }),
      ]);
      const answers = await Promise.all([
        call("PATCH", `/api/v1/users/${two.user.id}`, one, { role: "USER" }),
        call("PATCH", `/api/v1/users/${one.user.id}`, two, { role: "USER" }),
      ]);
      expect(await t.prisma.user.count({ where: { role: "ADMIN" } })).toBeGreaterThanOrEqual(1);
      // One wins; the other is refused (409, last ADMIN) or no longer an admin by then (403).
      expect(answers.map((answer) => answer.status).sort()).toContain(200);
      await t.prisma.user.updateMany({ where: { role: "ADMIN" }, data: { role: "USER" } });
    }
  });

  it("keeps an ADMIN: the last one can neither delete nor demote themself", async () => {
    // The only admin of this database: demote every other first.
    await t.prisma.user.updateMany({ where: { role: "ADMIN" }, data: { role: "USER" } });
    const admin = await newUser(t.prisma, { admin: true });
    const url = `/api/v1/users/${admin.user.id}`;
    const demote = await call("PATCH", url, admin, { role: "USER" });
    expect(demote.status).toBe(409);
    expect(demote.body.message).toBe("This is the last ADMIN: make another user ADMIN first");
    expect((await call("DELETE", url, admin)).status).toBe(409);
    const second = await newUser(t.prisma, { admin: true });
    expect((await call("PATCH", url, second, { role: "USER" })).status).toBe(200);
  });
});

describe("GET /teams/{teamId}/event-types", () => {
  it("lists the team's event types in v1's shape {event_types: [...]} (v1's apps/api/v1/pages/api/teams/[teamId]/event-types/_get.ts), for members, invitees and admins", async () => {
    const created = await call("POST", "/api/v1/event-types", world.owner, {
      title: "Team sync",
      slug: unique("team-sync"),
      length: 30,
      teamId: world.teamId,
      schedulingType: "ROUND_ROBIN",
      hosts: [{ userId: world.member.user.id }],
    });
    expect(created.status, created.text).toBe(201);
    // Someone's personal event type, and another team's, are not the team's.
    await call("POST", "/api/v1/event-types", world.member, {
      title: "Mine",
      slug: unique("mine"),
      length: 15,
    });
    const other = await call("POST", "/api/v1/teams", world.member, { name: "Other" });
    await call("POST", "/api/v1/event-types", world.member, {
      title: "Other team's",
      slug: unique("other"),
      length: 15,
      teamId: (other.body.team as { id: number }).id,
    });
    const read = await call(
      "GET",
      `/api/v1/event-types/${(created.body.event_type as { id: number }).id}`,
      world.owner,
    );
    for (const caller of [world.owner, world.admin, world.member, world.invitee, world.siteAdmin]) {
      for (const url of [
        `/v1/teams/${world.teamId}/event-types`,
        `/api/v1/teams/${world.teamId}/event-types`,
      ]) {
        const response = await call("GET", url, caller);
        expect(response.status, url).toBe(200);
        expect(response.body).toEqual({ event_types: [read.body.event_type] });
      }
    }
  });

  it("pages with page and take, and answers an empty list for a team without event types", async () => {
    for (let n = 0; n < 3; n++) {
      await t.prisma.eventType.create({
        data: { title: `E${n}`, slug: unique("e"), length: 30, teamId: world.teamId },
      });
    }
    const url = `/api/v1/teams/${world.teamId}/event-types`;
    const all = (await call("GET", url, world.member)).body.event_types as { id: number }[];
    expect(all).toHaveLength(3);
    const second = await call("GET", `${url}?page=2&take=2`, world.member);
    expect(second.body.event_types).toEqual(all.slice(2));
    const empty = await call("POST", "/api/v1/teams", world.stranger, { name: "Empty" });
    const emptyId = (empty.body.team as { id: number }).id;
    expect((await call("GET", `/api/v1/teams/${emptyId}/event-types`, world.stranger)).body).toEqual({
      event_types: [],
    });
  });

  it("answers 404 for a team you do not belong to or that does not exist, 400 for a bad id or query, 405 for other methods", async () => {
    const url = `/api/v1/teams/${world.teamId}/event-types`;
    const stranger = await call("GET", url, world.stranger);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ message: `Team with id: ${world.teamId} not found` });
    expect((await call("GET", "/api/v1/teams/2147483647/event-types", world.siteAdmin)).status).toBe(404);
    for (const bad of ["/api/v1/teams/abc/event-types", `${url}?take=0`, `${url}?slug=x`]) {
      expect((await call("GET", bad, world.owner)).status, bad).toBe(400);
    }
    const post = await call("POST", url, world.owner, {});
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET");
    expect((await call("GET", url)).status).toBe(401);
  });
});
