#!/bin/sh
# Only ossa_-prefixed symbols leave libossa. The shared library: every dynamic symbol it defines
# (nm -D). The static library: every global symbol its objects define (readelf), hidden or not,
# since a program linking the archive meets them all; and those with default visibility, what
# a shared object linking the archive would export, are the shared library's. Symbols the toolchain adds (_init, _fini, __bss_start, _edata, _end)
# are ignored.
set -eu
static=$1
shared=$2
bad=0
toolchain='^(_init|_fini|__bss_start|_edata|_end|__end__|_DYNAMIC|_GLOBAL_OFFSET_TABLE_)$'

dyn=$(nm -D --defined-only "$shared" | awk 'NF >= 3 {print $3}' | sed 's/@.*//' |
      grep -Ev "$toolchain" | sort -u)
[ -n "$dyn" ] || { echo "FAIL: $shared exports nothing"; exit 1; }
count=$(printf '%s\n' "$dyn" | grep -c '^ossa_' || true)
echo "$shared: $count ossa_ symbols exported"
for s in $(printf '%s\n' "$dyn" | grep -v '^ossa_' || true); do
    echo "FAIL: $shared exports $s"; bad=1
done

# readelf -sW: Num Value Size Type Bind Vis Ndx Name
stat=$(readelf -sW "$static" | awk '$5 == "GLOBAL" || $5 == "WEAK" {
        if ($6 == "DEFAULT" && $7 != "UND" && $8 != "") print $8 }' |
       grep -Ev "$toolchain" | sort -u)
# A program linking the archive meets every global symbol its objects define, hidden ones
# included (visibility only matters to a shared object): all of them carry the prefix too.
for s in $(readelf -sW "$static" | awk '($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" &&
             $8 != "" {print $8}' | grep -Ev "$toolchain" | grep -v '^ossa_' | sort -u); do
    echo "FAIL: $static defines $s, which a program linking it could clash with"; bad=1
done
[ -n "$stat" ] || { echo "FAIL: $static has no default-visibility symbol"; exit 1; }
for s in $(printf '%s\n' "$stat" | grep -v '^ossa_' || true); do
    echo "FAIL: $static defines $s with default visibility"; bad=1
done
# Every symbol the shared library exports is one the static objects mark public, and back.
if [ "$(printf '%s\n' "$dyn")" != "$(printf '%s\n' "$stat")" ]; then
    echo "FAIL: the shared and static libraries disagree on the public symbols:"
    printf '%s\n' "$dyn" > "${TMPDIR:-/tmp}/ossa_dyn.$$"
    printf '%s\n' "$stat" | diff "${TMPDIR:-/tmp}/ossa_dyn.$$" - || true
    rm -f "${TMPDIR:-/tmp}/ossa_dyn.$$"
    bad=1
fi
[ $bad = 0 ] && echo "ok: only ossa_ symbols are exported"
exit $bad
