# Matchday in a container: the bot on the embedded local service unless ESPORTS_API_URL is set.
# The build stage makes dist/ (JavaScript, `npm run build`: scripts/build.mjs); the final image holds
# production dependencies only, dist/ and bin/matchday.mjs, which runs dist/cli.mjs as user `node`.
# scripts/container-check reproduces these steps without a container engine; CI runs it.
FROM node:24.11-bookworm-slim AS deps
WORKDIR /app
# sqlite3 builds from source when no prebuilt binary fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:24.11-bookworm-slim AS build
WORKDIR /app
# Every dependency (esbuild is a development one); no install scripts: the build loads no native
# module (esbuild runs its binary from its platform package), so sqlite3 is not compiled here.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
COPY commands ./commands
RUN npm run build

FROM node:24.11-bookworm-slim
WORKDIR /app
# Without a TTY and without a platform token Matchday runs as a notifier-only service and says so;
# the operations endpoint (/healthz, /readyz, /metrics) listens on every interface of the container.
ENV NODE_ENV=production \
    STORE_URL=sqlite:///app/data/matchday.sqlite \
    METRICS_PORT=9464 \
    METRICS_HOST=0.0.0.0
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 9464
# The probe follows METRICS_PORT (set with `docker run -e METRICS_PORT=...`); 9464 is the image's own.
HEALTHCHECK --interval=30s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.METRICS_PORT || 9464}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains and stops within 10 s (Docker's default grace before SIGKILL).
STOPSIGNAL SIGTERM
CMD ["node", "bin/matchday.mjs", "start"]
