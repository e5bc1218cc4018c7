#!/bin/sh
# The exe_wrapper of `meson test --setup=valgrind`: compiled tests run under memcheck (any error,
# or a block definitely lost, fails them with status 99); tests that are scripts (Python, shell)
# run as they are, since the programs they start are not traced.
case "$(basename "$1")" in
    python3*|sh|bash|*.sh|*.py) exec "$@" ;;
esac
exec valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --suppressions="$(dirname "$0")/valgrind-libcal3d.supp" \
    --show-leak-kinds=definite --num-callers=30 "$@"
