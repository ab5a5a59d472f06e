# channelnet: multi-stage image; production dependencies only, runs as the non-root `node` user.
# The Studio console is built in its own stage (its toolchain, Vite, React and Mantine, is a dev
# dependency) and only its output, dist/studio, reaches the image.
FROM node:20-bookworm-slim AS console
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY bin ./bin
COPY src ./src
COPY web ./web
RUN node bin/build.mjs

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY src ./src
COPY drizzle ./drizzle
COPY assets ./assets
COPY --from=console /app/dist/studio ./dist/studio
# The bundle is built into the image: the app directory is not writable at run time.
RUN node bin/build.mjs --server-only
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "bin/channelnet.mjs", "serve"]
