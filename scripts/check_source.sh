#!/usr/bin/env bash
# Source rules CI checks before building (issue #14), each failure named with its file:
#   - every C++ file is clang-formatted (.clang-format; fix with: scripts/check_source.sh --fix);
#   - no source file is over 500 lines;
#   - every algorithm folder has the module shape of docs/ARCHITECTURE.md;
#   - comments cite papers, never design documents outside the repository.
set -uo pipefail
cd "$(dirname "$0")/.."
format=$(command -v clang-format-14 || command -v clang-format) || { echo "check_source: clang-format not found" >&2; exit 1; }
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp')
status=0
problem() { echo "check_source: $*" >&2; status=1; }

if [ "${1:-}" = --fix ]; then "$format" -i "${sources[@]}"; fi
for file in "${sources[@]}"; do
  "$format" --dry-run --Werror "$file" >/dev/null 2>&1 || problem "$file is not clang-formatted (scripts/check_source.sh --fix)"
  lines=$(wc -l <"$file")
  [ "$lines" -le 500 ] || problem "$file has $lines lines (at most 500)"
done

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
[ $status -eq 0 ] && echo "check_source: ${#sources[@]} files formatted, none over 500 lines; module shape and citations fine"
exit $status
