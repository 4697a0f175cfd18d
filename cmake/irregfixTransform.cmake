# irregfix_transform(<target> SOURCES <a.cu> ... [OPTIONS <tool flags>] [OUTPUT_DIR <dir>])
#
# Runs irregfix on each source as a pre-build step, compiles the rewritten file
# in its place and links irregfix::runtime. Include paths and definitions are
# taken from the target, so the tool parses the source as nvcc will.
function(irregfix_transform target)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "SOURCES;OPTIONS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "irregfix_transform(${target}): no SOURCES given")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/irregfix")
  endif()
  get_target_property(target_sources ${target} SOURCES)

  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(src_abs "${src}" ABSOLUTE)
    get_filename_component(src_dir "${src_abs}" DIRECTORY)
    get_filename_component(src_name "${src_abs}" NAME_WE)
    set(out "${ARG_OUTPUT_DIR}/${src_name}.irregfix.cu")

    if(TARGET irregfix)
      set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
      set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
      add_custom_command(
        OUTPUT "${out}"
        COMMAND ${CMAKE_COMMAND} -E make_directory "${ARG_OUTPUT_DIR}"
        COMMAND irregfix ${ARG_OPTIONS} "${src_abs}" -o "${out}" --
                "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
                "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>"
        DEPENDS "${src_abs}" irregfix
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
      message(FATAL_ERROR "irregfix_transform(${target}): the irregfix tool is not built "
                          "and IRREGFIX_REWRITTEN_DIR is not set")
    endif()

    list(REMOVE_ITEM target_sources "${src}" "${src_abs}")
    list(APPEND target_sources "${out}")
    # The rewritten file lives in the build tree; its quoted includes still resolve here.
    target_include_directories(${target} PRIVATE "${src_dir}")
  endforeach()

  set_property(TARGET ${target} PROPERTY SOURCES ${target_sources})
  target_link_libraries(${target} PRIVATE irregfix::runtime)
endfunction()
