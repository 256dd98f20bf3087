# cms: flat-file content management service. `make` lists the targets.
.DEFAULT_GOAL := help
SHELL := /bin/bash
GO ?= go
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
FUZZTIME ?= 10s
# make soak: how long, and further flags of local/bench (e.g. SOAKFLAGS='-soak-limit-mib 256').
SOAK ?= 5m
SOAKFLAGS ?=
# make lambda builds for linux/arm64; GOARCH=amd64 (command line or environment, or the older
# alias GOARCH_LAMBDA=amd64) builds x86-64 functions. LAMBDA_ARCHITECTURE is the template's name.
ifneq ($(filter command line environment,$(origin GOARCH)),)
GOARCH_LAMBDA ?= $(GOARCH)
endif
GOARCH_LAMBDA ?= arm64
LAMBDA_ARCHITECTURE = $(if $(filter amd64,$(GOARCH_LAMBDA)),x86_64,$(GOARCH_LAMBDA))
# make lambda writes every group's function into LAMBDA_DIST; LAMBDA_GROUPS=health builds one.
LAMBDA_DIST ?= dist/lambda
LAMBDA_GROUPS ?= $(patsubst runtime/lambda/%/main.go,%,$(wildcard runtime/lambda/*/main.go))

.PHONY: help dev test build lint bench soak fuzz generate tidy lambda hooks cp-bundle

help: ## list the targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

dev: build ## run the service on the embedded starter site (created in .dev-site/ on first run; ADDR=127.0.0.1:3001 for another port)
	./bin/cms dev --site .dev-site$(if $(ADDR), --addr '$(ADDR)')

build: ## build the cms binary into bin/cms
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/cms ./local

test: ## run every test with the race detector
	$(GO) test -race -shuffle=on -timeout 8m ./...
	@# Under -race the hook tests run guests on wazero's interpreter; run them once more compiled.
	$(GO) test -shuffle=on -timeout 4m ./wasmhooks/...
	@# The Control Panel's browser tests (Chromium) run here, without -race (see local/cpbrowser).
	$(GO) test -timeout 4m ./local/cpbrowser/...

lambda: ## build each group's Lambda function: dist/lambda/<group>/bootstrap and <group>.zip (linux/arm64; GOARCH=amd64 for x86-64)
	@case '$(GOARCH_LAMBDA)' in arm64|amd64) ;; *) echo "make lambda: GOARCH must be arm64 or amd64 (the architectures Lambda runs), not '$(GOARCH_LAMBDA)'" >&2; exit 2;; esac
	rm -rf '$(LAMBDA_DIST)' && mkdir -p '$(LAMBDA_DIST)'
	GOOS=linux GOARCH=$(GOARCH_LAMBDA) CGO_ENABLED=0 $(GO) build -tags lambda.norpc -trimpath -ldflags '-s -w' \
	  -o '$(LAMBDA_DIST)/' $(addprefix ./runtime/lambda/,$(LAMBDA_GROUPS))
	@# The packager runs here, so it is built for this machine whatever GOARCH says.
	GOOS= GOARCH= $(GO) run ./runtime/lambda/internal/zipper '$(LAMBDA_DIST)'
	@echo '$(LAMBDA_ARCHITECTURE)' > '$(LAMBDA_DIST)/architecture.txt'
	@echo "make lambda: built for linux/$(GOARCH_LAMBDA); deploy with the template parameter Architecture=$(LAMBDA_ARCHITECTURE) (also in $(LAMBDA_DIST)/architecture.txt)"

lint: ## gofmt check, go vet, staticcheck
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '^wasmhooks/testdata/')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool staticcheck ./...

bench: ## generate 1k/10k/100k-entry sites and report start-up, memory and load figures
	$(GO) run ./local/bench

soak: ## opt-in, not in make test: SOAK (default 5m) of mixed load on a 10k-entry site; fails if peak RSS exceeds the budget
	$(GO) run ./local/bench -soak $(SOAK) $(SOAKFLAGS)

fuzz: ## run each fuzz target for FUZZTIME (default 10s)
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; done

hooks: ## build the example validation hooks (wasmhooks/examples) into bin/hooks/*.wasm
	@mkdir -p bin/hooks
	@set -e; for d in wasmhooks/examples/*/; do n=$$(basename $$d); \
	  GOOS=wasip1 GOARCH=wasm $(GO) build -buildmode=c-shared -trimpath -ldflags='-s -w' -o bin/hooks/$$n.wasm ./$$d; \
	  echo "bin/hooks/$$n.wasm"; done

generate: ## run go generate
	$(GO) generate ./...

cp-bundle: ## rebuild the CP's editor bundles (handlers/cp/static/assets/vendor) with esbuild; needs npm, not needed by make dev
	$(GO) run ./handlers/cp/internal/bundle

tidy: ## tidy go.mod
	$(GO) mod tidy
