# Fails when ARCHIVE has an undefined symbol that is not in ALLOWED (a
# comma-separated list): the core must not pull in the C++ runtime,
# operator new, printf or anything else an engine cannot provide.
#   cmake -DARCHIVE=<lib> -DNM=<nm> -DALLOWED=a,b,c -P CheckSymbols.cmake
execute_process(COMMAND ${NM} --undefined-only --format=just-symbols ${ARCHIVE}
  OUTPUT_VARIABLE Out RESULT_VARIABLE Rc)
if(NOT Rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${ARCHIVE}")
endif()
string(REPLACE "," ";" Allowed "${ALLOWED}")
string(REPLACE "\n" ";" Symbols "${Out}")
set(Bad)
foreach(S IN LISTS Symbols)
  string(STRIP "${S}" S)
  if(S STREQUAL "" OR S MATCHES ":$")
    continue()
  endif()
  list(FIND Allowed "${S}" I)
  if(I EQUAL -1)
    # Symbols defined by another member of the same archive are fine.
    execute_process(COMMAND ${NM} --defined-only --format=just-symbols ${ARCHIVE}
      OUTPUT_VARIABLE Defined)
    string(REPLACE "\n" ";" Defined "${Defined}")
    list(FIND Defined "${S}" J)
    if(J EQUAL -1)
      list(APPEND Bad "${S}")
    endif()
  endif()
endforeach()
if(Bad)
  list(REMOVE_DUPLICATES Bad)
  message(FATAL_ERROR "massif_core references symbols it may not use: ${Bad}")
endif()
message(STATUS "massif_core: only allowed external symbols")
