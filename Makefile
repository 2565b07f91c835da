# Everything a developer or CI runs. `make test` is what .ci/run calls.
GO      ?= go
BIN     ?= bin/ccm
PREFIX  ?= /usr/local
PKGS    := ./...
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: build test fuzz bench torture lint install deps clean

build:
	$(GO) build -trimpath -o $(BIN) ./cmd/ccm

# Installs the system tools the tests drive (tar, unzip, dpkg-dev, systemd,
# dbus) when missing, runs every test under the race detector, then fuzzes
# the manifest loader, the template lexer and the lookup-path parser.
test: deps lint
	$(GO) test -race -count=1 -timeout 80m $(PKGS)
	$(MAKE) fuzz

# Each fuzz target runs for FUZZTIME from its seed corpus in testdata/fuzz;
# a failing input is saved there (see .ci/fuzz.sh for the one retry).
FUZZTIME ?= 15s
fuzz:
	GO=$(GO) ./.ci/fuzz.sh $(FUZZTIME) ./graph FuzzLoad
	GO=$(GO) ./.ci/fuzz.sh $(FUZZTIME) ./resources/template FuzzLex
	GO=$(GO) ./.ci/fuzz.sh $(FUZZTIME) ./resources/template FuzzPath

# The drift oracle (cmd/ccm/driftoracle) for DURATION, shared by its eight
# configurations; make test runs it for 2 minutes under the race detector.
# SEED replays a run a failure printed (0: a new seed).
DURATION ?= 10m
SEED     ?= 0
torture:
	$(GO) test -count=1 -timeout 0 -run '^TestDriftOracle$$' -v ./cmd/ccm/driftoracle -args -duration=$(DURATION) -seed=$(SEED)

deps:
	./.ci/test-deps.sh

bench: build
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 1x -count 1 -timeout 120m $(PKGS)

lint:
	$(GO) vet $(PKGS)
	$(STATICCHECK) $(PKGS)
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

install: build
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/ccm

clean:
	rm -rf bin
