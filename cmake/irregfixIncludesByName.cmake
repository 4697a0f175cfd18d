# cmake -DSOURCE_DIR=<runtime/src> -P irregfixIncludesByName.cmake
#
# Fails when a runtime source includes one of the runtime's headers by a path
# ("../api/launch.h", "layouts/padded/padded.h"): a part of the runtime sees
# another's headers only through the include directories of the parts it uses
# (irregfix_runtime_part, runtime/CMakeLists.txt), which is how the compiler
# checks that runtime/src depends one way. A header included by a path would
# get round that.
file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*.h" "${SOURCE_DIR}/*.cuh"
     "${SOURCE_DIR}/*.cu" "${SOURCE_DIR}/*.cpp" "${SOURCE_DIR}/*.in")
set(by_path)
foreach(source IN LISTS sources)
  file(STRINGS "${SOURCE_DIR}/${source}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]*[/\\\\]")
  foreach(line IN LISTS lines)
    list(APPEND by_path "  ${source}: ${line}")
  endforeach()
endforeach()
if(by_path)
  list(JOIN by_path "\n" listed)
  message(FATAL_ERROR "runtime sources include headers by a path, not by name:\n${listed}")
endif()
list(LENGTH sources count)
message(STATUS "${count} runtime sources include the runtime's headers by name only")
