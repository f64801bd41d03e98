# shellcheck shell=bash
# Keeps Node.js's compile cache in bounds; sourced by scripts/setup.sh.
#
# Node.js never trims its compile cache, and each checkout, each temporary project of the tests and
# each .work folder adds entries under paths no later run loads again: a machine that ran the suite
# for two days held 1.4 GB in 140,000 files.

# shellcheck source=leftovers.sh
source "$(dirname "${BASH_SOURCE[0]}")/leftovers.sh"

# Starts the cache folder `$1` over when it holds more than `$2` files, only when it is `$3`, the
# setup's own (a cache the user named in NODE_COMPILE_CACHE is theirs, and left as it is). Its
# `.started` tells when it last started, so that every checkout knows to warm it again.
pm_bound_compile_cache() {
  local dir="$1" limit="$2" own="$3" entries
  [ "$dir" = "$own" ] || return 0
  # A start-over killed before its removal finished.
  pm_remove_leftovers "$dir.old"
  entries="$(find "$dir" -type f 2>/dev/null | wc -l)"
  if [ "$entries" -gt "$limit" ]; then
    printf '[setup] %s\n' "Node.js's compile cache held $entries files (more than $limit): starting it over" >&2
    # Moved aside first, then removed: Node.js processes running meanwhile (the suite's own, another
    # checkout's) write their entries by path, so none lands in the folder being removed. A setup
    # that moved it a moment earlier leaves nothing to move.
    local old="$dir.old.$$"
    if mv "$dir" "$old" 2>/dev/null; then
      rm -rf "$old" || return 1
    fi
  fi
  [ -e "$dir/.started" ] || { mkdir -p "$dir" && touch "$dir/.started"; }
}
