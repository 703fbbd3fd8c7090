# expect(MESSAGE CONDITION...): fails the script with MESSAGE unless the condition holds. Included by
# the CLI test scripts here.
function(expect message)
  if(NOT (${ARGN}))
    message(FATAL_ERROR "${message}")
  endif()
endfunction()
