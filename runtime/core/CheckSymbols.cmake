# Fails when ARCHIVE has an undefined symbol that is neither defined by the
# archive itself nor in ALLOWED (a comma-separated list), or when it has a
# global constructor: the core must not pull in the C++ runtime, operator
# new, printf or anything else an engine cannot provide.
#   cmake -DARCHIVE=<lib> -DNM=<nm> -DALLOWED=a,b,c -P CheckSymbols.cmake
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND ${NM} --undefined-only --format=just-symbols ${ARCHIVE}
  OUTPUT_VARIABLE Undefined RESULT_VARIABLE Rc1)
execute_process(COMMAND ${NM} --defined-only --format=just-symbols ${ARCHIVE}
  OUTPUT_VARIABLE Defined RESULT_VARIABLE Rc2)
if(NOT Rc1 EQUAL 0 OR NOT Rc2 EQUAL 0)
  message(FATAL_ERROR "nm failed on ${ARCHIVE}")
endif()
string(REPLACE "," ";" Allowed "${ALLOWED}")
# A position-independent object may name the GOT; that is not a dependency.
list(APPEND Allowed _GLOBAL_OFFSET_TABLE_)
string(REPLACE "\n" ";" Undefined "${Undefined}")
string(REPLACE "\n" ";" Defined "${Defined}")
set(Bad)
foreach(S IN LISTS Undefined)
  if(S STREQUAL "" OR S MATCHES ":$")
    continue()
  endif()
  if(NOT S IN_LIST Allowed AND NOT S IN_LIST Defined)
    list(APPEND Bad "${S}")
  endif()
endforeach()
foreach(S IN LISTS Defined)
  if(S MATCHES "^_GLOBAL__sub_I_")
    list(APPEND Bad "${S} (a global constructor)")
  endif()
endforeach()
if(Bad)
  list(REMOVE_DUPLICATES Bad)
  message(FATAL_ERROR "${ARCHIVE} references what the core may not use: ${Bad}")
endif()
message(STATUS "${ARCHIVE}: only allowed external symbols, no constructors")
