# irregfix_transform(<target> SOURCES <a.cu> ... [OPTIONS <tool flags>] [OUTPUT_DIR <dir>])
#
# Runs irregfix on each source as a pre-build step, compiles the rewritten file
# in its place and links irregfix::runtime. Include paths and definitions are
# taken from the target, so the tool parses the source as nvcc will. A depfile
# written by the tool lists every header the source includes, so editing one
# re-runs irregfix (Ninja and Makefile generators).
#
# Installed with the package (find_package(irregfix CONFIG)) and included by
# irregfix's own build. In irregfix's build tree, where Clang 19 is missing,
# IRREGFIX_REWRITTEN_DIR names a directory of files rewritten elsewhere.

# DEPFILE paths are read relative to the build tree (CMP0116), whatever
# cmake_minimum_required() the including project has; the function records the
# policies in force where it is defined.
cmake_policy(VERSION 3.20...3.28)

function(irregfix_transform target)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "SOURCES;OPTIONS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "irregfix_transform(${target}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "irregfix_transform(${target}): no such target")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "irregfix_transform(${target}): no SOURCES given")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/irregfix")
  endif()
  get_filename_component(ARG_OUTPUT_DIR "${ARG_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  if(NOT TARGET irregfix::runtime)
    message(FATAL_ERROR "irregfix_transform(${target}): irregfix::runtime is not available "
                        "(irregfix was built without CUDA)")
  endif()
  get_target_property(target_sources ${target} SOURCES)

  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(src_abs "${src}" ABSOLUTE)
    get_filename_component(src_dir "${src_abs}" DIRECTORY)
    get_filename_component(src_name "${src_abs}" NAME_WE)
    set(out "${ARG_OUTPUT_DIR}/${src_name}.irregfix.cu")

    if(TARGET irregfix::irregfix)
      set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
      set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
      add_custom_command(
        OUTPUT "${out}"
        COMMAND ${CMAKE_COMMAND} -E make_directory "${ARG_OUTPUT_DIR}"
        COMMAND irregfix::irregfix ${ARG_OPTIONS} "${src_abs}" -o "${out}" "--depfile=${out}.d" --
                "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
                "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>"
        DEPENDS "${src_abs}" "$<TARGET_FILE:irregfix::irregfix>"
        DEPFILE "${out}.d"
        COMMENT "irregfix ${src}"
        COMMAND_EXPAND_LISTS
        VERBATIM)
    elseif(IRREGFIX_REWRITTEN_DIR)
      # Built where Clang 19 is not available: take the file the tool wrote elsewhere.
      set(pre "${IRREGFIX_REWRITTEN_DIR}/${src_name}.irregfix.cu")
      if(NOT EXISTS "${pre}")
        message(FATAL_ERROR "irregfix_transform(${target}): ${pre} does not exist")
      endif()
      configure_file("${pre}" "${out}" COPYONLY)
    else()
      message(FATAL_ERROR "irregfix_transform(${target}): the irregfix tool is not available "
                          "and IRREGFIX_REWRITTEN_DIR is not set")
    endif()

    list(REMOVE_ITEM target_sources "${src}" "${src_abs}")
    list(APPEND target_sources "${out}")
    set_source_files_properties("${out}" PROPERTIES GENERATED TRUE)
    # The rewritten file lives in the build tree; its quoted includes still resolve here.
    target_include_directories(${target} PRIVATE "${src_dir}")
  endforeach()

  set_property(TARGET ${target} PROPERTY SOURCES ${target_sources})
  target_link_libraries(${target} PRIVATE irregfix::runtime)
endfunction()
