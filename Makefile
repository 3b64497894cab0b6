# PermitReady — the two set-up commands are `make chat` and `make test`.
SWIFT ?= swift
APT_PACKAGES := libcurl4-openssl-dev libsqlite3-dev libcairo2-dev pkg-config fonts-dejavu-core
CHAT_DB ?= chat.sqlite

.PHONY: deps build chat test validate ship-flags ship bench boundaries clean release
VERSION := $(shell sed -n 's/.*string = "\(.*\)".*/\1/p' Sources/TutorBot/Version.swift)
RELEASE := permitready-$(VERSION)
TARBALL := dist/$(RELEASE)-linux-$(shell uname -m).tar.gz

# How the shipped binary is built (`make release`, and `make bench`, which measures that binary):
# the Swift runtime linked in, and relative relocations packed (DT_RELR, glibc 2.36+: 2.1 MB of
# .rela.dyn read at start-up becomes 17 KB). (Code laid out by a hand-kept order file saved ~4 MiB
# of 80 at the 1,000-learner load, under the 10% it had to earn: dropped, docs/performance.md.)
SHIP_FLAGS := --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs

# Installs the C libraries the build links against when run as root; otherwise prints the apt line.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else echo "Missing packages. Run: sudo apt-get install -y$$missing"; exit 1; fi; \
	fi

build: deps
	$(SWIFT) build --build-tests

# Talk to the bot in this terminal (no token needed); progress is kept in $(CHAT_DB).
chat: deps
	$(SWIFT) build --product permitready
	.build/debug/permitready chat --db $(CHAT_DB)

test: deps boundaries
	$(SWIFT) build --build-tests
	.build/debug/permitready banks validate --dir Banks
	.build/debug/permitready banks lint --dir Banks
	$(SWIFT) test --skip-build --no-parallel

validate: deps
	$(SWIFT) build --product permitready
	.build/debug/permitready banks validate --dir Banks
	.build/debug/permitready banks lint --dir Banks

# Objects compiled before these flags would stay: the compiler keeps an object whose code is
# unchanged, and a flag that only moves functions into sections doesn't change it. So objects go
# when the flags change.
ship-flags:
	@if [ "$$(cat .build/ship-flags 2>/dev/null)" != "$(SHIP_FLAGS)" ]; then \
	  find .build -path '*/release/*.build/*.o' -delete 2>/dev/null; \
	  mkdir -p .build && echo "$(SHIP_FLAGS)" > .build/ship-flags; fi

# The shipped binary and the bench beside it (which runs `permitready run` from its own folder).
ship: deps ship-flags
	$(SWIFT) build -c release --product permitready $(SHIP_FLAGS)
	$(SWIFT) build -c release --product permitready-bench $(SHIP_FLAGS)

bench: ship
	.build/release/permitready-bench --all

# The pure core imports no networking and no SQLite; the API client knows nothing of the store.
boundaries:
	@if grep -rEn '^import (TelegramAPI|TutorStore|GRDB|CCurl|CCairo|FoundationNetworking|Mustache)' Sources/TutorCore; then \
	  echo "TutorCore must stay pure (Foundation only)"; exit 1; fi
	@if grep -rEn '^import (TutorStore|TutorCore|GRDB)' Sources/TelegramAPI; then \
	  echo "TelegramAPI must not depend on the store or the core"; exit 1; fi
	@if grep -rEn '^import (FakeBotAPI|LearnerSimulation|Drills)' Sources/permitready Sources/TutorBot Sources/TutorStore Sources/TutorCore; then \
	  echo "the shipped binary must not carry the fake Bot API, the simulated learners or the drills (permitready-bench does)"; exit 1; fi
	@if grep -rEln 'enum DrillData|write-load|WriteLoad' Sources/permitready Sources/TutorBot Sources/TutorStore Sources/TutorCore; then \
	  echo "drill data and the write-load drill belong in Sources/Drills and permitready-bench"; exit 1; fi
	@if grep -rEln 'enum Calibration|struct FakeBotAPI|final class FakeBotAPI|struct StreamingJSONEncoder|enum JSONValue' Sources/TutorCore Sources/TutorBot; then \
	  echo "the learner simulator, the fake and the JSON coding belong in their own modules"; exit 1; fi
	@if grep -rEn '^import' Sources/JSONCoding | grep -v 'import Foundation$$'; then \
	  echo "JSONCoding is Foundation only"; exit 1; fi
	@echo "module boundaries OK"

# One versioned tarball an operator unpacks on a bare Debian 12 server: the Swift runtime linked
# in (no toolchain there), stripped, with the banks, prompts and deploy files; then proven by
# tools/release-check.sh from an empty directory with the toolchain off PATH.
release: deps ship-flags
	$(SWIFT) build -c release --product permitready $(SHIP_FLAGS)
	rm -rf dist/$(RELEASE) && mkdir -p dist/$(RELEASE)
	cp .build/release/permitready dist/$(RELEASE)/
	strip dist/$(RELEASE)/permitready
	cp -r Banks Prompts deploy README.md dist/$(RELEASE)/
	cp Vendor/swift-mustache/LICENSE.txt dist/$(RELEASE)/LICENSE-swift-mustache.txt
	tar -C dist -czf $(TARBALL) $(RELEASE)
	rm -rf dist/$(RELEASE)
	cd dist && sha256sum $(notdir $(TARBALL)) > SHA256SUMS && sha256sum -c SHA256SUMS
	tools/release-check.sh $(TARBALL)

clean:
	rm -rf .build dist
