# forge: build, run and test. Nothing but Go is needed.
GO       ?= go
BIN      ?= bin/forge
FUZZTIME ?= 10s
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -X github.com/forgehq/forge/internal/version.Version=$(VERSION)

.PHONY: all build run test cover bench fuzz fmt vet clean

all: build

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/forge

# Builds forge and opens the shell with the built-in tools.
run: build
	./$(BIN)

# Every test, race detector on. This is what CI runs. The 32-bit vet of the
# core keeps it compiling where int has 32 bits (a test constant once did
# not), since int's size is where validation's bounds live; the rest of the
# tree would double the cold build for no such risk. Unformatted files fail it.
# go test's own vet pass is off: go vet ./... has just run every analyzer it
# would, and on a cold 2-core CI machine the second pass costs half a minute.
test:
	@unformatted=$$(gofmt -l cmd internal); if [ -n "$$unformatted" ]; then \
		echo "gofmt needed (make fmt):"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	GOARCH=386 $(GO) vet ./internal/tools/...
	$(GO) test -race -vet=off -count=1 ./...

# Coverage of every package; the core's total is printed last.
cover:
	$(GO) test -count=1 -coverprofile=coverage.out ./...
	@$(GO) tool cover -func=coverage.out | tail -n 1
	@$(GO) test -count=1 -coverprofile=coverage-tools.out ./internal/tools/ >/dev/null
	@printf 'internal/tools: '; $(GO) tool cover -func=coverage-tools.out | tail -n 1 | awk '{print $$NF}'

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# A short run of every fuzz target (FUZZTIME each).
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for fn in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$fn"; \
			$(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; \
	done

fmt:
	gofmt -w $$(git ls-files '*.go')

vet:
	$(GO) vet ./...

clean:
	rm -rf bin coverage*.out
