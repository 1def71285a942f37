# What CMake needs from the exercises' manifest (exercises/manifest.txt): which exercises there
# are (each adds lesson builds and tests) and each one's folder. Those two things are read here,
# while CMake configures, from the `[NN]` and `topic = ` lines; everything else (ranks, checks,
# hints, whether the whole file is well-formed) is asked of tools/ringlab-manifest, the manifest's
# one full reader, an ordinary target built into BUILD/bin (tools/ringlab-manifest/CMakeLists.txt),
# which also checks the manifest in every build. CMake re-runs by itself when the manifest changes.
#
# Sets RINGLAB_MANIFEST (the file), RINGLAB_MANIFEST_TOOL (the program, once built) and, from the
# manifest, RINGLAB_MANIFEST_EXERCISES ("02;03;...") and RINGLAB_MANIFEST_<NN>_TOPIC.
set(RINGLAB_MANIFEST ${CMAKE_SOURCE_DIR}/exercises/manifest.txt)
set(RINGLAB_MANIFEST_TOOL ${CMAKE_BINARY_DIR}/bin/ringlab-manifest)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${RINGLAB_MANIFEST})

# Only block headers ("[05]") and topic lines ("topic = 05_ring_allreduce"): neither holds a ';'.
# After a malformed header ("[5]") the lines belong to no exercise, as for ringlab-manifest.
file(STRINGS ${RINGLAB_MANIFEST} _rm_lines REGEX "^[ \t]*(\\[|topic[ \t]*=)")
set(RINGLAB_MANIFEST_EXERCISES "")
unset(_rm_nn)
foreach(_rm_line IN LISTS _rm_lines)
  if(_rm_line MATCHES "^[ \t]*\\[([0-9][0-9])\\][ \t\r]*$")
    set(_rm_nn ${CMAKE_MATCH_1})
    list(APPEND RINGLAB_MANIFEST_EXERCISES ${_rm_nn})
  elseif(_rm_line MATCHES "^[ \t]*\\[")
    unset(_rm_nn)
  elseif(DEFINED _rm_nn AND _rm_line MATCHES "^[ \t]*topic[ \t]*=[ \t]*([^ \t\r]+)")
    set(RINGLAB_MANIFEST_${_rm_nn}_TOPIC ${CMAKE_MATCH_1})
  endif()
endforeach()
list(REMOVE_DUPLICATES RINGLAB_MANIFEST_EXERCISES)  # "[05] twice" is for ringlab-manifest to say
foreach(_rm_nn IN LISTS RINGLAB_MANIFEST_EXERCISES)
  if(NOT RINGLAB_MANIFEST_${_rm_nn}_TOPIC)
    message(FATAL_ERROR "ringlab: exercises/manifest.txt: exercise [${_rm_nn}] has no topic line")
  endif()
endforeach()
