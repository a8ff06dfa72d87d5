# The Sentra gateway (HTTP + socket.io on 8080, MQTT on 1883, MQTT over WebSocket at /mqtt) as one image.
# Build stage: install everything, build the web console and the gateway bundle, then drop dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 falls back to compiling when no prebuilt binary matches the platform
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
# native builds (server/native, better-sqlite3's fallback) against the image's own Node headers, not a download
ENV npm_config_nodedir=/usr/local
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY server/package.json server/
COPY web/package.json web/
COPY simulator/package.json simulator/
COPY loadtest/package.json loadtest/
# (the postinstall cannot build server/native yet: its sources come with the rest below)
RUN npm ci
COPY . .
# the native helper (several MQTT broker threads, the native socket reader): a failed build fails the image
RUN npm run native && test -f server/native/build/Release/fd.node
RUN npm run build && npm prune --omit=dev

# Runtime stage: the built bundle, its migrations, the built console and production dependencies only.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    MQTT_PORT=1883 \
    DATA_DIR=/app/data \
    SEAL_KEY_FILE=/app/keys/seal.key
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/contracts ./contracts
COPY --from=build /app/server/package.json ./server/
COPY --from=build /app/server/dist ./server/dist
COPY --from=build /app/server/drizzle ./server/drizzle
COPY --from=build /app/server/drizzle-pg ./server/drizzle-pg
COPY --from=build /app/server/native/build/Release/fd.node ./server/native/build/Release/fd.node
COPY --from=build /app/web/package.json ./web/
COPY --from=build /app/web/dist ./web/dist
RUN mkdir -p /app/data /app/keys && chown -R node:node /app/data /app/keys && chmod 700 /app/keys
USER node
VOLUME ["/app/data", "/app/keys"]
# 8081: the balancer's liveness check when LIVENESS_PORT=8081 (docker-compose.yml)
EXPOSE 8080 1883 8081
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:8080/service/web/system/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# npm forwards SIGTERM to node, so `docker stop` ends in app.close() (graceful shutdown)
CMD ["npm", "run", "serve"]
