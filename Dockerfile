# dreamwiki in a container, for CI without Go:
#   docker build -t dreamwiki .
#   docker run --rm -v "$PWD:/work" -w /work dreamwiki build . --out dist
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# A static binary (no cgo), stamped with the commit it was built from.
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=true -o /dreamwiki ./cmd/dreamwiki

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /dreamwiki /dreamwiki
ENTRYPOINT ["/dreamwiki"]
