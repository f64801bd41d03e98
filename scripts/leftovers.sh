# shellcheck shell=bash
# What a setup killed mid-step leaves; sourced by scripts/setup.sh and scripts/compile-cache.sh.
#
# A step that replaces a folder builds the new one beside it under `<name>.<its pid>`, then renames
# it into place: killed in between, the half-made folder stays. The next setup removes those of
# processes that no longer exist, so that nobody has to.

# Removes `$1.<pid>` for each pid that is not a running process.
pm_remove_leftovers() {
  local leftover pid
  for leftover in "$1".*; do
    [ -e "$leftover" ] || continue
    pid="${leftover##*.}"
    case "$pid" in '' | *[!0-9]*) continue ;; esac
    kill -0 "$pid" 2>/dev/null || rm -rf "$leftover"
  done
}
