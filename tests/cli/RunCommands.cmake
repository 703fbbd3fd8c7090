# The commands besides run: --version, help and its topics, check on a good config (exit 0, the
# runs listed, no output folder made), and an unknown help topic (exit 1, the topics named);
# docs/config-reference.md is what `help config` prints.
include(${CMAKE_CURRENT_LIST_DIR}/Expect.cmake)
function(kollective)  # kollective(ARGS...): sets status, stdout, stderr in the caller
  execute_process(COMMAND ${KOLLECTIVE} ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(status ${code} PARENT_SCOPE)
  set(stdout "${out}" PARENT_SCOPE)
  set(stderr "${err}" PARENT_SCOPE)
endfunction()

kollective(--version)
expect("--version: status ${status}, stdout '${stdout}'" status EQUAL 0 AND stdout MATCHES "^kollective [0-9]+\\.[0-9]+\\.[0-9]+ \\(revision ")
foreach(topic "" run check info algorithms config results)
  kollective(help ${topic})
  string(LENGTH "${stdout}" printed)
  expect("help ${topic}: status ${status}, stderr '${stderr}'" status EQUAL 0 AND printed GREATER 100)
  expect("help ${topic} printed Kokkos' help" NOT stdout MATCHES "Kokkos command line arguments")
endforeach()
kollective(help config)
file(READ ${REFERENCE} reference)
expect("docs/config-reference.md differs from `kollective help config`: write it again with\n  kollective help config > docs/config-reference.md"
       stdout STREQUAL reference)
kollective(help results)
file(READ ${RESULTS_REFERENCE} results_reference)
expect("docs/results-reference.md differs from `kollective help results`: write it again with\n  kollective help results > docs/results-reference.md"
       stdout STREQUAL results_reference)
kollective(run --help)
expect("run --help: not the run topic:\n${stdout}" status EQUAL 0 AND stdout MATCHES "^kollective run CONFIG.yaml")
kollective(help nonsense)
expect("help nonsense: status ${status}, stderr '${stderr}'" status EQUAL 1 AND stderr MATCHES "topics: run, check")
kollective(frobnicate)
expect("an unknown command: status ${status}, stderr '${stderr}'" status EQUAL 1 AND stderr MATCHES "unknown command 'frobnicate'")

file(REMOVE_RECURSE ${WORK})
kollective(check ${CONFIG} --out ${WORK}/quickstart)
expect("check ${CONFIG}: status ${status}\n${stderr}" status EQUAL 0)
expect("check did not list the runs:\n${stdout}" stdout MATCHES "runs checked" AND stdout MATCHES "schulze_languages: 1 point")
expect("check made the output folder" NOT EXISTS ${WORK})
kollective(run ${CMAKE_CURRENT_LIST_DIR}/sweep_names.yaml --out ${WORK}/sweep --quiet)
expect("the sweep run failed: ${stderr}" status EQUAL 0)
foreach(file schulze_sweep_n5_v7_ranking.csv schulze_sweep_n6_v7_ranking.csv kemeny_sweep_n5_v7_rankings.csv
             kemeny_sweep_n6_v7_rankings.csv)
  expect("a sweep point's file is not named alike: ${file} missing" EXISTS ${WORK}/sweep/${file})
endforeach()
# Settings the chosen method never reads are accepted for a release, with a warning at their line.
file(WRITE ${WORK}/ignored.yaml "runs:\n  - name: ignored\n    algorithm: coalition\n    input: {generator: {model: uniform, agents: 4, seed: 1}}\n    options:\n      method: idp\n      ip_share: 0.5\n")
kollective(check ${WORK}/ignored.yaml --out ${WORK}/ignored)
expect("an ignored setting: status ${status}, stderr '${stderr}'"
       status EQUAL 0 AND stderr MATCHES "warning: [^\n]*ignored.yaml:7: 'ip_share' has no effect with method idp")
message("commands: --version, help, check, sweep file names, ignored settings passed")
