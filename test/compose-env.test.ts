// CI does not run Docker (it was verified by hand: docs/adr/0021), so this test checks what
// compose would use: the services, the image, healthchecks, restart policy and variables,
// against .env.example and the services' config schemas; and what the image build leaves out.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { SERVICE_NODE_FLAGS } from "@app/server/service-process";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const root = new URL("../", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), "utf8");

interface Service {
  profiles?: string[];
  command?: string[];
  volumes?: string[];
  ports?: string[];
  build?: string;
  image?: string;
  restart?: string;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}
// `merge`: both services share their image settings through a YAML merge key (<<: *app).
const compose = parse(read("docker-compose.yml"), { merge: true }) as { services: Record<string, Service> };

/** Variable names of .env.example (commented lines are documentation). */
const example = new Map(
  read(".env.example")
    .split("\n")
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const),
);

describe("docker-compose.yml", () => {
  it("runs PostgreSQL, Redis and both services, each with a healthcheck", () => {
    const inProfile = (profile: string | undefined) =>
      Object.entries(compose.services)
        .filter(([, service]) => service.profiles?.[0] === profile)
        .map(([name]) => name)
        .sort();
    expect(inProfile(undefined)).toEqual(["postgres", "redis", "scheduling", "shortener"]);
    // `--profile scale`: HAProxy in front of two more instances of each (test/scale-config.test.ts).
    expect(inProfile("scale")).toEqual([
      "haproxy",
      "scheduling-1",
      "scheduling-2",
      "shortener-1",
      "shortener-2",
    ]);
    // `--profile backup`: pgBackRest backups of PostgreSQL (docs/adr/0217).
    expect(inProfile("backup")).toEqual(["backup"]);
    // `--profile mail`: MailDev, for developers to read the booking e-mails.
    expect(inProfile("mail")).toEqual(["mail"]);
    // `--profile ha`: the services on a Patroni cluster (test/scale-config.test.ts, docs/operations.md).
    expect(inProfile("ha")).toEqual([
      "etcd-1",
      "etcd-2",
      "etcd-3",
      "pg-1",
      "pg-2",
      "pg-3",
      "pg-haproxy",
      "scheduling-ha",
      "shortener-ha",
    ]);
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.healthcheck?.test.length, name).toBeGreaterThan(0);
    }
    expect(existsSync(new URL("Dockerfile", root))).toBe(true);
    for (const app of ["shortener", "scheduling"]) {
      expect(compose.services[app]!.build).toBe(".");
      expect(compose.services[app]!.depends_on?.postgres?.condition).toBe("service_healthy");
    }
    expect(compose.services.scheduling!.depends_on?.redis?.condition).toBe("service_healthy");
  });

  it("builds one named image for both services, restarts them, and checks readiness, not liveness", () => {
    const [shortener, scheduling] = [compose.services.shortener!, compose.services.scheduling!];
    expect(shortener.image).toBeTruthy();
    expect(scheduling.image).toBe(shortener.image);
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.restart, name).toBe("unless-stopped");
    }
    expect(shortener.healthcheck!.test.join(" ")).toContain("http://127.0.0.1:3000/ready");
    expect(scheduling.healthcheck!.test.join(" ")).toContain("http://127.0.0.1:3001/ready");
    // Over TCP: the official image's first-start setup server answers on its socket only.
    expect(compose.services.postgres!.healthcheck!.test.join(" ")).toMatch(/pg_isready -h 127\.0\.0\.1/);
  });
});

describe("the profile `backup`", () => {
  it("archives PostgreSQL's WAL with pgBackRest into the volume its backups go to, on the same paths", () => {
    const { postgres, backup } = compose.services as Record<string, Service>;
    expect(postgres!.command).toContain("archive_mode=on");
    expect(postgres!.command!.find((arg) => arg.startsWith("archive_command="))).toMatch(
      /pgbackrest --stanza=app archive-push %p$/,
    );
    // pgBackRest compares its pg1-path with the server's data_directory, and reaches it by its socket.
    for (const volume of [
      "pgdata:/var/lib/postgresql/data",
      "pgrun:/var/run/postgresql",
      "pgbackrest:/var/lib/pgbackrest",
    ]) {
      expect(postgres!.volumes, volume).toContain(volume);
      expect(backup!.volumes, volume).toContain(volume);
    }
    expect(backup!.image).toBe(postgres!.image);
    expect(backup!.depends_on?.postgres?.condition).toBe("service_healthy");
    const conf = read("deploy/postgres/pgbackrest.conf");
    expect(conf).toMatch(/^\[app\]$/m);
    expect(conf).toMatch(/^pg1-path=\/var\/lib\/postgresql\/data$/m);
    expect(conf).toMatch(/^repo1-path=\/var\/lib\/pgbackrest$/m);
    expect(read("deploy/postgres/Dockerfile")).toMatch(/^FROM postgres:17$/m);
  });
});

describe("the node flags of every service process (SERVICE_NODE_FLAGS)", () => {
  const flags = [...SERVICE_NODE_FLAGS];
  it("are the image's command, compose's commands and `pnpm start`'s", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(read("Dockerfile"))?.[1];
    expect(JSON.parse(cmd!)).toEqual(["node", ...flags, "dist/start.js"]);
    for (const name of ["shortener", "scheduling"]) {
      expect(compose.services[name]!.command, name).toEqual([
        "node",
        ...flags,
        `apps/${name}/dist/server.js`,
      ]);
    }
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toMatch(new RegExp(`exec node ${flags.join(" ")} dist/start\\.js$`));
  });
});

describe("the image", () => {
  it("leaves secrets, local data, dependencies and history out of the build context", () => {
    const ignored = read(".dockerignore").split("\n");
    for (const entry of [".env", ".data", "node_modules", ".git"]) expect(ignored, entry).toContain(entry);
  });

  it("runs node itself as a non-root user on the current LTS, with production dependencies only", () => {
    const dockerfile = read("Dockerfile");
    expect(dockerfile).toMatch(/^FROM node:24-/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^CMD \["node", /m);
    expect(dockerfile).toContain("--prod");
  });

  it("copies every workspace package's manifest before `pnpm install --frozen-lockfile`", () => {
    const dockerfile = read("Dockerfile");
    const manifests = ["apps", "packages"].flatMap((folder) =>
      readdirSync(new URL(`${folder}/`, root))
        .map((name) => `${folder}/${name}/package.json`)
        .filter((file) => existsSync(new URL(file, root))),
    );
    expect(manifests).toContain("packages/shortener-sdk/package.json");
    for (const manifest of manifests) expect(dockerfile, manifest).toContain(`COPY ${manifest} ${manifest}`);
  });

  it("only sets variables that .env.example documents, and listens on all interfaces", () => {
    for (const app of ["shortener", "scheduling", "shortener-1", "scheduling-2"]) {
      const env = compose.services[app]!.environment ?? {};
      for (const key of Object.keys(env)) expect(example.has(key), `${app}: ${key}`).toBe(true);
      expect(env.HOST).toBe("0.0.0.0");
      expect(env.DATABASE_URL).toMatch(/^postgresql:\/\/postgres:postgres@postgres:5432\/app$/);
    }
    expect(compose.services.scheduling!.environment?.REDIS_URL).toBe("redis://redis:6379");
    expect(compose.services["scheduling-1"]!.environment?.REDIS_URL).toBe("redis://redis:6379");
    // The profile `ha`: the same variables, the database through the cluster's HAProxy.
    for (const app of ["shortener", "scheduling"]) {
      const env = compose.services[`${app}-ha`]!.environment ?? {};
      for (const key of Object.keys(env)) expect(example.has(key), `${app}-ha: ${key}`).toBe(true);
      expect({
        ...env,
        DATABASE_URL: "",
        DATABASE_DIRECT_URL: "",
        DATABASE_REPLICA_URL: "",
        SHORT_BASE_URL: "",
      }).toEqual({
        ...compose.services[app]!.environment,
        DATABASE_URL: "",
        DATABASE_DIRECT_URL: "",
        DATABASE_REPLICA_URL: "",
        SHORT_BASE_URL: "",
      });
    }
  });

  it("runs the instances behind the proxy like the others, trusting one proxy hop, unpublished", () => {
    for (const name of ["shortener-1", "shortener-2", "scheduling-1", "scheduling-2"]) {
      const service = compose.services[name]!;
      const alone = compose.services[name.replace(/-\d$/, "")]!;
      expect(service.image, name).toBe(alone.image);
      expect(service.healthcheck, name).toEqual(alone.healthcheck);
      expect(service.environment?.TRUST_PROXY, name).toBe("1");
      expect(service.ports, name).toBeUndefined();
      expect({ ...service.environment, TRUST_PROXY: "", SHORT_BASE_URL: "" }, name).toEqual({
        ...alone.environment,
        TRUST_PROXY: "",
        SHORT_BASE_URL: "",
      });
    }
    expect(compose.services["shortener-1"]!.environment?.SHORT_BASE_URL).toBe("http://localhost:8000");
  });

  it("publishes each service on its configured port", () => {
    expect(compose.services.shortener!.environment?.SHORTENER_PORT).toBe("3000");
    expect(compose.services.scheduling!.environment?.SCHEDULING_PORT).toBe("3001");
  });
});
