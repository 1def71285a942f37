# ringlab-manifest (tools/ringlab-manifest), the one reader of exercises/manifest.txt, is built
# here, while CMake configures, rather than as an ordinary target: CMake needs the manifest's
# exercises at configure time (each one adds lesson builds and tests), and a target is only built
# after configuring. So it is compiled now with try_compile (the same compiler and CLI11 as the
# kit; MPI-free sources only), copied to BUILD/bin/ringlab-manifest, and asked for the manifest
# as CMake variables. It is rebuilt only when one of its sources is newer than it, and CMake
# re-runs by itself when the sources or the manifest change. The scripts use the same binary
# (scripts/ringlab-exercise), so CMake, ctest and `./ringlab check|hint` read the manifest
# the same way. Its parser is also in the ringlab library, unit-tested (tests/core/test_manifest.cpp).
#
# Sets RINGLAB_MANIFEST_TOOL (the program), RINGLAB_MANIFEST (the file), and, from the manifest,
# RINGLAB_MANIFEST_EXERCISES ("02;03;...") and RINGLAB_MANIFEST_<NN>_TOPIC / _TITLE.
set(RINGLAB_MANIFEST ${CMAKE_SOURCE_DIR}/exercises/manifest.txt)
set(RINGLAB_MANIFEST_TOOL ${CMAKE_BINARY_DIR}/bin/ringlab-manifest)
set(_rm_sources ${CMAKE_SOURCE_DIR}/tools/ringlab-manifest/main.cpp ${CMAKE_SOURCE_DIR}/core/src/check/manifest.cpp
                ${CMAKE_SOURCE_DIR}/core/src/check/diagnose_runs.cpp)
set(_rm_inputs ${_rm_sources} ${CMAKE_SOURCE_DIR}/core/include/ringlab/check/manifest.hpp
               ${CMAKE_SOURCE_DIR}/core/include/ringlab/check/diagnose_runs.hpp)
set(_rm_stale FALSE)
foreach(input ${_rm_inputs})
  if(${input} IS_NEWER_THAN ${RINGLAB_MANIFEST_TOOL})  # also true when the program is not there yet
    set(_rm_stale TRUE)
  endif()
endforeach()
if(_rm_stale)
  message(STATUS "ringlab: building ringlab-manifest (it reads exercises/manifest.txt for CMake and the scripts)")
  try_compile(_rm_built ${CMAKE_BINARY_DIR}/ringlab-manifest-build
    SOURCES ${_rm_sources}
    CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${CMAKE_SOURCE_DIR}/core/include"
    COMPILE_DEFINITIONS -Wall -Wextra
    LINK_LIBRARIES CLI11::CLI11
    CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF
    OUTPUT_VARIABLE _rm_log
    COPY_FILE ${RINGLAB_MANIFEST_TOOL})
  if(NOT _rm_built)
    message(FATAL_ERROR "ringlab: could not build tools/ringlab-manifest:\n${_rm_log}")
  endif()
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_rm_inputs} ${RINGLAB_MANIFEST})

file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/exercises)
execute_process(COMMAND ${RINGLAB_MANIFEST_TOOL} --manifest ${RINGLAB_MANIFEST} cmake
                OUTPUT_FILE ${CMAKE_BINARY_DIR}/exercises/manifest.cmake
                ERROR_VARIABLE _rm_error RESULT_VARIABLE _rm_rc)
if(NOT _rm_rc EQUAL 0)
  message(FATAL_ERROR "ringlab: exercises/manifest.txt has a problem:\n${_rm_error}")
endif()
include(${CMAKE_BINARY_DIR}/exercises/manifest.cmake)
