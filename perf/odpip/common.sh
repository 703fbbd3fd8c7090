# Shared by run.sh and side_by_side.sh (sourced).

# kollective_config FILE NAME OUTPUT METHOD INPUT [WRITE]: one coalition run of the driver, double,
# unverified; INPUT and WRITE are the contents of YAML flow maps ("file: x.txt, format: text",
# "binary: true").
kollective_config() {
  local file=$1 name=$2 output=$3 method=$4 input=$5 write=${6:-}
  cat > "$file" <<YAML
title: Kollective on $name
output: $output
runs:
  - name: $name
    algorithm: coalition
    input: {$input}
    options: {method: $method, precision: double}
    verify: false
YAML
  [[ -z "$write" ]] || echo "    write: {$write}" >> "$file"
}

# odpip_heap N ARRAYS: java -Xmx for ODP-IP over n agents, room for ARRAYS arrays of 2^n doubles and
# at least 1 GiB (it holds about 2.5: the values, its DP's table and split sizes); ODPIP_XMX wins.
odpip_heap() {
  local mib=$(( (1 << $1) * 8 * $2 >> 20 ))
  echo "${ODPIP_XMX:-$(( mib > 1024 ? mib : 1024 ))m}"
}
