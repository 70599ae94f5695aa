# Bridgekeeper's container image: the server, the console it serves, and production dependencies only.
#
#   docker build -t bridgekeeper .
#   (buildah or podman: `buildah bud --format docker -t bridgekeeper .`; the OCI format drops HEALTHCHECK)
#   docker run --read-only --tmpfs /tmp -v bridgekeeper-data:/data -p 5000:5000 bridgekeeper
#
# It runs as an unprivileged user (uid 1000) with a read-only root filesystem: the server writes only
# to DATA_DIR (/data, a volume: the embedded database and the generated key file when neither
# DATABASE_URL nor SECRET_KEY is set). compose.yaml runs two instances on PostgreSQL behind HAProxy;
# deploy/kubernetes/ is a kustomize base.

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Build: every dependency, then the console (dist/web), the server bundle (dist/server) and the
#    migrated PGlite seed a first start on an empty DATA_DIR copies (dist/pglite-seed).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Production dependencies only (what dist/server/main.js imports; vite is loaded only in development).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. Run: what `node dist/server/main.js` reads at run time. package.json marks the app root
#    (server/lib/app-root.ts) and gives the version; the migrations are read from server/db/migrations.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=5000 DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY server/db/migrations ./server/db/migrations
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/dist/web ./dist/web
COPY --from=build /app/dist/pglite-seed ./dist/pglite-seed
# The app's files stay root's (read-only to the server); only the data directory is the user's.
# The image's `node` user, by number so Kubernetes' runAsNonRoot can check it.
RUN mkdir -p /data && chown 1000:1000 /data
USER 1000:1000
VOLUME /data
EXPOSE 5000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 5000) + '/api/mcp/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# On SIGTERM the server drains (its health check 503 for SHUTDOWN_DRAIN_MS, 5 s on PostgreSQL), then
# finishes in-flight requests and ends event streams with a final event (within SHUTDOWN_TIMEOUT_MS,
# 9 s): give it more than both before a kill (compose's stop_grace_period, Kubernetes'
# terminationGracePeriodSeconds).
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
