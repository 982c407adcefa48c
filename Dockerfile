# One image for both services (multi-stage). The services run TypeScript through tsx, so
# the runtime stage keeps the installed workspace; the build stage only adds the tools
# that `pnpm install` needs.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN npm install -g pnpm@10.34.9
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY apps/shortener/package.json apps/shortener/package.json
COPY apps/scheduling/package.json apps/scheduling/package.json
COPY packages/db/package.json packages/db/package.json
COPY packages/schemas/package.json packages/schemas/package.json
COPY prisma prisma
COPY prisma.config.ts ./
COPY scripts/prisma-generate.mjs scripts/prisma-generate.mjs
RUN pnpm install --frozen-lockfile

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
RUN npm install -g pnpm@10.34.9
COPY --from=deps /app /app
COPY . .
USER node
EXPOSE 3000 3001
# Each service migrates the database before it listens (under an advisory lock, so both
# starting at once is safe).
CMD ["pnpm", "start"]
