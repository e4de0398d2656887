# Matchday in a container: the bot on the embedded local service unless ESPORTS_API_URL is set.
FROM node:20.20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20.20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production STORE_URL=sqlite:///app/data/matchday.sqlite
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY src ./src
COPY commands ./commands
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
VOLUME ["/app/data"]
CMD ["node", "bin/matchday.mjs", "start"]
