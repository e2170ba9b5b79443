# Taleweaver's container: built in one stage, run in another with production dependencies only, as
# the unprivileged `node` user, node itself under tini (PID 1 forwards SIGTERM to node, never npm, so
# the graceful drain runs: docs/operations.md). The command is what `npm run serve` runs; a test
# (server/container-recipe.test.ts) keeps the two the same and runs it as a plain process.
# No container engine runs on the machines this was written on: see docs/operations.md.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    LOG_FORMAT=json
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
RUN mkdir -p /data /backups && chown node:node /data /backups
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness, not readiness: a draining instance is healthy, only leaving (the proxy reads /readyz).
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Longer than SHUTDOWN_DRAIN_MS (30 s) plus closing: also set `stop_grace_period` / `docker stop -t`.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-old-space-size=512", "--max-semi-space-size=8", "--v8-pool-size=2", "dist/server/main.js"]
