# syntax=docker/dockerfile:1
# Rehearse: one static binary, plus the two programs that check spoken answers offline
# (internal/hear), on a minimal non-root runtime image. Build with
#   docker build -t rehearse .
# and run with a volume for the database (docs/operations.md).

FROM golang:1.26 AS build
WORKDIR /src
# Dependencies first, so editing the source does not invalidate the module download layer.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# CGO off: the SQLite driver is pure Go and speech runs as separate programs, so the binary
# needs no libc. The templ output is committed, so no code generation runs here.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/rehearse ./cmd/rehearse \
 && mkdir -p /out/data

# The runtime needs pocketsphinx_continuous with its US English model, and ffmpeg to decode the
# browser's WebM/Opus. distroless has neither and no package manager to add them; Alpine does
# not package pocketsphinx's model; so Debian's slim image, which has both as packages, is the
# slimmest base that carries them. Bookworm: its pocketsphinx (0.8+5prealpha) still ships
# pocketsphinx_continuous, the program internal/hear runs and is tested with.
# --no-install-recommends keeps optional extras out.
FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      pocketsphinx pocketsphinx-en-us ffmpeg \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/rehearse /usr/local/bin/rehearse
# An empty /data owned by the runtime user, so a fresh named volume is writable.
COPY --from=build --chown=65532:65532 /out/data /data
ENV REHEARSE_ADDR=0.0.0.0:8080 \
    REHEARSE_DATA=/data
VOLUME ["/data"]
EXPOSE 8080
# An unprivileged uid with no account or shell of its own.
USER 65532:65532
# The image has no curl: the binary checks its own /healthz (on 127.0.0.1 when listening on 0.0.0.0).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/rehearse", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/rehearse"]
CMD ["serve"]
