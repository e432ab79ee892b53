# syntax=docker/dockerfile:1
# One image for every app; the command picks the service, e.g.
#   docker run IMAGE node apps/oauth/dist/main.js
#   docker run IMAGE node apps/identity/dist/migrate.js
# (docker-compose.yml and infra/k8s do exactly this.)

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
# pnpm pinned to the root packageManager field; corepack's signature check fails on some
# registries (docs/architecture.md), npm does not.
ENV PNPM_HOME=/pnpm \
    PATH=/pnpm:$PATH \
    CI=true \
    TURBO_TELEMETRY_DISABLED=1
RUN npm install --global pnpm@10.34.8 && npm cache clean --force
WORKDIR /app

FROM base AS build
# Native modules (argon2 when no prebuilt binary fits) compile here, never in the runtime image.
RUN apt-get update \
 && apt-get install --yes --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# Download every package from the lockfile alone: this layer survives source-only changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc package.json ./
# The lockfile's patched dependencies (patchedDependencies in pnpm-workspace.yaml).
COPY patches ./patches
RUN pnpm fetch --frozen-lockfile
COPY . .
# Installs and runs `generate` (protobuf, Prisma), then builds every package through turbo.
RUN pnpm install --frozen-lockfile --offline && pnpm build
# Keep the built workspace (dist/, prisma/migrations/ read by migrate.js) but reinstall only
# production dependencies from the store fetched above (`pnpm prune --prod` leaves the apps'
# own node_modules empty; `pnpm deploy` would need a `files` list, dist/ being git-ignored).
# --ignore-scripts skips the root postinstall, which needs turbo, a dev tool; the filtered
# rebuild then runs the dependency build scripts pnpm allows (onlyBuiltDependencies).
# The shared test fixtures (@authz/shared/testing, built for the other packages' tests) go:
# no production code imports them (docs/architecture.md #16).
RUN find . -name node_modules -type d -prune -exec rm -rf {} + \
 && pnpm install --frozen-lockfile --offline --prod --ignore-scripts \
 && pnpm --filter './apps/*' --filter './packages/*' rebuild \
 && find . -name .turbo -type d -prune -exec rm -rf {} + \
 && rm -rf packages/shared/dist/testing

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    GRPC_HOST=0.0.0.0
WORKDIR /app
# Owned by root and read-only to the app user: the container can run with a read-only rootfs.
COPY --from=build /app /app
USER node
EXPOSE 3000
CMD ["node", "apps/gateway/dist/main.js"]
