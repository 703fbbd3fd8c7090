#!/usr/bin/env bash
# Source rules CI checks before building (issue #14), each failure named with its file:
#   - every C++ file is clang-formatted (.clang-format; fix with: scripts/check_source.sh --fix);
#   - no function is over max_function_lines lines (lizard's count, from PyPI into .deps/venv): a
#     file is split by topic, a function by step;
#   - every algorithm folder has the module shape of docs/ARCHITECTURE.md;
#   - comments cite papers, never design documents outside the repository.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
format=$(command -v clang-format-14 || command -v clang-format) || { echo "check_source: clang-format not found" >&2; exit 1; }
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp')
status=0
problem() { echo "check_source: $*" >&2; status=1; }

if [ "${1:-}" = --fix ]; then "$format" -i "${sources[@]}"; fi
for file in "${sources[@]}"; do
  "$format" --dry-run --Werror "$file" >/dev/null 2>&1 || problem "$file is not clang-formatted (scripts/check_source.sh --fix)"
done

max_function_lines=125
"$root/scripts/install_packages.sh" python-test >/dev/null || problem "scripts/install_packages.sh python-test failed"
[ -x "$root/.deps/venv/bin/lizard" ] || problem "lizard is missing from .deps/venv (python/requirements-test.txt)"
long=$("$root/.deps/venv/bin/lizard" -l cpp -w -L "$max_function_lines" -C 1000 -a 100 "${sources[@]}" 2>&1 | grep "warning:")
[ -z "$long" ] || problem "functions over $max_function_lines lines (split them by step):
$long"

# <Name>.hpp, <Name>Types, <Name>Reference, <Name>IO and impl/<Name>_Impl.hpp in every folder.
for folder in algorithms/*/; do
  name=""
  for header in "$folder"*.hpp; do
    stem=$(basename "$header" .hpp)
    grep -q "^#include \"kollective/${folder}impl/${stem}_Impl.hpp\"" "$header" && name=$stem
  done
  [ -n "$name" ] || { problem "$folder has no public header including impl/<Name>_Impl.hpp"; continue; }
  for part in "$name.hpp" "${name}Types.hpp" "${name}Types.cpp" "${name}Reference.hpp" "${name}Reference.cpp" \
              "${name}IO.hpp" "${name}IO.cpp" "impl/${name}_Impl.hpp"; do
    [ -f "$folder$part" ] || problem "$folder lacks $part (docs/ARCHITECTURE.md: the module shape)"
  done
done

if grep -nE "(ALGORITHMS|PERF|SCALE-OUT)\.md|shared/design" "${sources[@]}" configs/*.yaml CMakeLists.txt */CMakeLists.txt; then
  problem "the lines above cite documents that are not in the repository (cite the paper, or docs/)"
fi
[ $status -eq 0 ] && echo "check_source: ${#sources[@]} files formatted, no function over $max_function_lines lines; module shape and citations fine"
exit $status
