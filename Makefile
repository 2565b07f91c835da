# Everything a developer or CI runs. `make test` is what .ci/run calls.
GO      ?= go
BIN     ?= bin/ccm
PREFIX  ?= /usr/local
PKGS    := ./...
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
DIST    ?= dist
MANDIR  ?= bin/man
# Stamped into `ccm --version` and the packages' versions.
VERSION ?= $(shell ./packaging/version.sh)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS := -X github.com/reactive-ccm/ccm/internal/buildinfo.version=$(VERSION) -X github.com/reactive-ccm/ccm/internal/buildinfo.commit=$(COMMIT)

.PHONY: build man test fuzz bench torture lint cross install deps dist clean

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/ccm

# The man pages of ccm and every command, generated from the command
# definitions: never edited by hand, never committed. The generator is in
# a build with the manpages tag only (cmd/ccm/manpages.go), so that the
# binary that ships does not initialise its markdown renderer at each run.
man:
	rm -rf $(MANDIR)
	$(GO) run -tags manpages -trimpath -ldflags '$(LDFLAGS)' ./cmd/ccm man-pages $(MANDIR)

# Installs the system tools the tests drive (tar, unzip, dpkg-dev, systemd,
# dbus) when missing, runs every test under the race detector, then fuzzes
# the manifest loader, the template lexer and the lookup-path parser.
test: deps lint cross
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

# Every benchmark once, then the rows that compare ccm with the floor as a
# table of ratios (cmd/ccm/internal/benchtable); the output is kept in
# bin/bench.txt.
bench: build
	@(status=0; $(GO) test -run '^$$' -bench . -benchmem -benchtime 1x -count 1 -timeout 120m $(PKGS) || status=$$?; \
	  echo $$status > bin/bench.status) | tee bin/bench.txt
	@$(GO) run ./cmd/ccm/internal/benchtable < bin/bench.txt
	@exit $$(cat bin/bench.status)

lint:
	$(GO) vet $(PKGS)
	$(STATICCHECK) $(PKGS)
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

# The architectures ccm is built for. `cross` vets and builds each of them
# (amd64 is vetted by lint and built by the tests), then runs the tests of
# the packages whose code meets per-architecture types (stat and statfs
# fields, timespecs, rlimits, peer credentials, inotify records) as a
# 32-bit 386 build, which runs natively on amd64.
ARCHES    := amd64 arm64 armv7 386 riscv64
ARCHPKGS  := ./engine ./engine/daemon/control ./engine/daemon/state ./resources/file \
	./resources/internal/ids ./resources/internal/safepath \
	./resources/pkg/internal/statuscache ./watchers/inotify/... \
	./watchers/internal/nonblock ./watchers/writer
goenv      = GOOS=linux CGO_ENABLED=0 $(if $(filter armv7,$(1)),GOARCH=arm GOARM=7,GOARCH=$(1))

cross: $(addprefix cross-,$(ARCHES))
	CGO_ENABLED=0 GOARCH=386 $(GO) test -count=1 $(ARCHPKGS)

cross-%:
	$(if $(filter amd64,$*),,$(call goenv,$*) $(GO) vet $(PKGS))
	$(call goenv,$*) $(GO) build -trimpath -o /dev/null ./cmd/ccm

install: build man
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/ccm
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0644 $(MANDIR)/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

# Release archives, .deb and .rpm packages for every architecture and
# their SHA256SUMS, in $(DIST) (see packaging/dist.sh).
dist:
	GO=$(GO) VERSION=$(VERSION) COMMIT=$(COMMIT) ./packaging/dist.sh $(DIST) $(ARCHES)

clean:
	rm -rf bin $(DIST)
