# syntax=docker/dockerfile:1
# Rehearse: one static binary on a minimal, non-root runtime image. Build with
#   docker build -t rehearse .
# and run with a volume for the database (docs/operations.md).

FROM golang:1.26 AS build
WORKDIR /src
# Dependencies first, so editing the source does not invalidate the module download layer.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# CGO off: the SQLite driver is pure Go, so the binary needs no libc and runs on a static image.
# The templ output is committed, so no code generation runs here.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/rehearse ./cmd/rehearse \
 && mkdir -p /out/data

# distroless/static has no shell and no package manager; the :nonroot tag runs as uid 65532.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/rehearse /usr/local/bin/rehearse
# An empty /data owned by the runtime user, so a fresh named volume is writable.
COPY --from=build --chown=65532:65532 /out/data /data
ENV REHEARSE_ADDR=0.0.0.0:8080 \
    REHEARSE_DATA=/data
VOLUME ["/data"]
EXPOSE 8080
USER 65532:65532
# The image has no curl: the binary checks its own /healthz (on 127.0.0.1 when listening on 0.0.0.0).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/rehearse", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/rehearse"]
CMD ["serve"]
