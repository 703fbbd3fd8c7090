# `mpirun -np RANKS kollective run distributed.yaml` writes the same tables as one rank (but for
# times, device and the ranks column) and the same result files, byte for byte. Each rank runs
# one thread, so floating-point sums are the same. Then a run that fails on one rank ends with
# its message, and ranks given different configs refuse to start.
include(${CMAKE_CURRENT_LIST_DIR}/Expect.cmake)

set(ENV{OMP_NUM_THREADS} 1)
set(launch ${MPIEXEC} -n ${RANKS} --oversubscribe)
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${KOLLECTIVE} run ${CASES}/distributed.yaml --out ${WORK}/one --quiet
                RESULT_VARIABLE status ERROR_VARIABLE stderr)
expect("one rank: exit status ${status}:\n${stderr}" status EQUAL 0)
execute_process(COMMAND ${launch} ${KOLLECTIVE} run ${CASES}/distributed.yaml --out ${WORK}/many --quiet
                RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr TIMEOUT 300)
expect("${RANKS} ranks: exit status ${status}:\n${stderr}" status EQUAL 0)
string(REGEX MATCHALL "tables written" summaries "${stdout}")
list(LENGTH summaries count)
expect("${RANKS} ranks: the summary came ${count} times, not once (rank 0 only):\n${stdout}" count EQUAL 1)

file(GLOB one RELATIVE ${WORK}/one ${WORK}/one/*)
file(GLOB many RELATIVE ${WORK}/many ${WORK}/many/*)
expect("${RANKS} ranks wrote other files:\n${one}\n${many}" one STREQUAL many)
set(varying "^(device|ranks|dp_ranks)$|_s$")
foreach(file ${one})
  if(file MATCHES "\\.(csv|md)$" AND EXISTS ${WORK}/one/${file}.json)
    continue()  # written from the same rows as its .json
  endif()
  string(REGEX REPLACE "\\.(csv|md)$" ".json" table ${file})
  if(NOT file MATCHES "\\.json$")
    string(REGEX REPLACE "\\.(csv|md)$" "" stem ${file})
    if(file STREQUAL "results.sqlite")
      # Times and sessions differ; its rows are the tables' compared here, and the equal file
      # lists show that no rank's own results.rank<R>.sqlite outlived the gathering.
    elseif(file MATCHES "^ranksvm_together.*_scores.txt$")
      # Scores of w from sums in another order: the same documents, rounding aside.
      file(STRINGS ${WORK}/one/${file} a)
      file(STRINGS ${WORK}/many/${file} b)
      list(LENGTH a count_a)
      list(LENGTH b count_b)
      expect("${file}: ${count_a} scores from one rank, ${count_b} from ${RANKS}" count_a EQUAL count_b)
    elseif(NOT EXISTS ${WORK}/one/${stem}.json)
      file(SHA256 ${WORK}/one/${file} a)
      file(SHA256 ${WORK}/many/${file} b)
      expect("${file} differs between one rank and ${RANKS}" a STREQUAL b)
    endif()
    continue()
  endif()
  file(READ ${WORK}/one/${file} a)
  file(READ ${WORK}/many/${file} b)
  string(JSON rows_a LENGTH "${a}" rows)
  string(JSON rows_b LENGTH "${b}" rows)
  expect("${file}: ${rows_a} rows from one rank, ${rows_b} from ${RANKS}" rows_a EQUAL rows_b)
  math(EXPR last "${rows_a} - 1")
  foreach(i RANGE ${last})
    string(JSON columns LENGTH "${a}" rows ${i})
    math(EXPR last_column "${columns} - 1")
    foreach(j RANGE ${last_column})
      string(JSON column MEMBER "${a}" rows ${i} ${j})
      string(JSON value_b ERROR_VARIABLE missing GET "${b}" rows ${i} ${column})
      expect("${file} row ${i}: column ${column} missing with ${RANKS} ranks" NOT missing)
      if(column MATCHES "${varying}")
        continue()
      endif()
      string(JSON value_a GET "${a}" rows ${i} ${column})
      string(JSON run_name GET "${a}" rows ${i} run)
      if(run_name MATCHES "^ranksvm_together" AND column MATCHES "^(objective|gradient_ratio)$")
        # RankSVM's sums over ranks run in another order: the objective agrees to rounding (the
        # distributed tests bound it to 1e-9 relative; here its first 10 digits).
        if(column STREQUAL "gradient_ratio")
          continue()
        endif()
        string(SUBSTRING "${value_a}" 0 11 value_a)
        string(SUBSTRING "${value_b}" 0 11 value_b)
      endif()
      expect("${file} row ${i} ${column}: '${value_a}' from one rank, '${value_b}' from ${RANKS}"
             value_a STREQUAL value_b)
    endforeach()
    string(JSON ranks GET "${b}" rows ${i} ranks)
    string(JSON run GET "${b}" rows ${i} run)
    set(expected 1)
    if(run MATCHES "together")
      set(expected ${RANKS})
    endif()
    expect("${file} row ${i}: ranks ${ranks}, expected ${expected}" ranks EQUAL expected)
    set(ranges 0)
    string(JSON least ERROR_VARIABLE no_range GET "${b}" rows ${i} exchange_min_s)  # shared solves: over the ranks
    if(NOT no_range)
      math(EXPR ranges "${ranges} + 1")
      string(JSON most GET "${b}" rows ${i} exchange_max_s)
      string(JSON own GET "${b}" rows ${i} exchange_s)
      expect("${file} row ${i}: exchange_s ${own} outside its range ${least}..${most} over the ranks"
             least LESS_EQUAL own AND own LESS_EQUAL most)
    endif()
    if(run MATCHES "together")
      expect("${file} row ${i}: a shared solve without its exchange range over the ranks" ranges EQUAL 1)
    endif()
  endforeach()
endforeach()

# A point that fails on whichever rank runs it: the run is named, its files are gone, the
# other runs are written (--keep-going).
execute_process(COMMAND ${launch} ${KOLLECTIVE} run ${CASES}/keep_going.yaml --out ${WORK}/failing --quiet --keep-going
                RESULT_VARIABLE status ERROR_VARIABLE stderr TIMEOUT 300)
expect("a failed run: exit status '${status}' with ${RANKS} ranks (a hang?)" status MATCHES "^[1-9][0-9]*$")
string(FIND "${stderr}" "run 'fails_while_running': the subset DP of 26 alternatives is estimated to take" found)
expect("a failed run on ${RANKS} ranks is not named:\n${stderr}" NOT found EQUAL -1)
expect("3 of 4 runs are not reported:\n${stderr}" stderr MATCHES "3 of 4 runs completed")
file(GLOB failed_files ${WORK}/failing/fails_while_running* ${WORK}/failing/.*)
expect("the failed run left files: ${failed_files}" NOT failed_files)
foreach(file first.json heuristic_closes_gap.json last.json)
  expect("${file} of a completed run is missing" EXISTS ${WORK}/failing/${file})
endforeach()

# A run solved by every rank together that fails ends every rank with the message.
file(WRITE ${WORK}/values.yaml
     "runs: [{name: values, algorithm: coalition, input: {generator: {model: uniform, agents: 14, seed: 1}}, "
     "options: {method: dp}, write: {binary: true}}]\n")
execute_process(COMMAND ${KOLLECTIVE} run ${WORK}/values.yaml --out ${WORK}/values --quiet RESULT_VARIABLE status)
expect("the values of 14 agents: exit status ${status}" status EQUAL 0)
file(READ ${CASES}/distributed_fails.yaml fails)
string(REPLACE "@VALUES@" "${WORK}/values/values_values.kcsg" fails "${fails}")
file(WRITE ${WORK}/distributed_fails.yaml "${fails}")
execute_process(COMMAND ${launch} ${KOLLECTIVE} run ${WORK}/distributed_fails.yaml --out ${WORK}/together --quiet
                RESULT_VARIABLE status ERROR_VARIABLE stderr TIMEOUT 120)
expect("a failed shared solve: exit status '${status}' (a hang?)" status MATCHES "^[1-9][0-9]*$")
expect("a failed shared solve is not named:\n${stderr}" stderr MATCHES "verify: true needs n <= 12")
file(GLOB left ${WORK}/together/together_fails*)
expect("a failed shared solve left files: ${left}" NOT left)
expect("the run before a failed shared solve lost its table" EXISTS ${WORK}/together/before.json)

# A rank whose memory cannot hold its share of a solve stops every rank before any run, naming
# the bytes and the ranks that would fit: rank 1 runs CONFIG with too little memory.
function(expect_memory_refusal config what message ranks_message)
  set(out ${WORK}/${config})
  execute_process(COMMAND ${MPIEXEC} --oversubscribe -n 1 ${KOLLECTIVE} run ${CASES}/${config}.yaml --out ${out}
                          : -n 1 env KOLLECTIVE_MEMORY_LIMIT=100000000 ${KOLLECTIVE} run ${CASES}/${config}.yaml
                          --out ${out}
                  RESULT_VARIABLE status ERROR_VARIABLE stderr TIMEOUT 120)
  expect("${what} too large for rank 1: exit status '${status}' (a hang?)" status MATCHES "^[1-9][0-9]*$")
  expect("${what} too large for rank 1 is not reported:\n${stderr}" stderr MATCHES "${message}")
  expect("${what} too large for rank 1: the rank counts are not named:\n${stderr}" stderr MATCHES "${ranks_message}")
  file(GLOB left ${out}/*.json)
  expect("${what} too large for rank 1 left tables: ${left}" NOT left)
endfunction()
if(RANKS GREATER 1)
  expect_memory_refusal(distributed_memory "a Kemeny DP share"
                        "rank 1: run 'kemeny_too_large': this rank's share of the Kemeny subset DP over 27" "on 2 ranks")
  expect_memory_refusal(distributed_memory_schulze "Schulze path rows"
                        "rank 1: run 'schulze_too_large': rank 1's rows of the Schulze path matrix of 6000"
                        "distribute: solve over about [0-9]+ ranks")
endif()

# `check` on several ranks refuses what only fails when shared, naming it, and leaves no folder.
if(RANKS GREATER 1)
  foreach(case "distributed_one_rank_ip;method: ip runs on one rank"
               "distributed_one_query;mq2007[(]q=1, .*[)]: RankSVM training shared by ${RANKS} ranks needs at least one query per rank [(]1 query[)]")
    list(GET case 0 config)
    list(GET case 1 message)
    execute_process(COMMAND ${launch} ${KOLLECTIVE} check ${CASES}/${config}.yaml --out ${WORK}/checked/a/b
                    RESULT_VARIABLE status ERROR_VARIABLE stderr TIMEOUT 120)
    expect("check ${config} on ${RANKS} ranks: exit status '${status}'" status MATCHES "^[1-9][0-9]*$")
    expect("check ${config} on ${RANKS} ranks does not say '${message}':\n${stderr}" stderr MATCHES "${message}")
    expect("check ${config} on ${RANKS} ranks left ${WORK}/checked" NOT EXISTS ${WORK}/checked)
  endforeach()
endif()

# Ranks given different configs refuse before any run.
if(RANKS GREATER 1)
  execute_process(COMMAND ${MPIEXEC} --oversubscribe -n 1 ${KOLLECTIVE} run ${CASES}/distributed.yaml --out ${WORK}/mixed
                          : -n 1 ${KOLLECTIVE} run ${CASES}/keep_going.yaml --out ${WORK}/mixed
                  RESULT_VARIABLE status ERROR_VARIABLE stderr TIMEOUT 120)
  expect("different configs: exit status '${status}' (a hang?)" status MATCHES "^[1-9][0-9]*$")
  expect("different configs are not refused:\n${stderr}" stderr MATCHES "rank 1 read a different")
  expect("different configs: rank 0 started anyway" NOT EXISTS ${WORK}/mixed/schulze_sweep.json)
endif()
