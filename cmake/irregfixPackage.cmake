# Install and export: the tool (irregfix::irregfix), its stub headers, the
# drop-in for nvcc (irregfix::nvcc), the runtime (irregfix::runtime) and its
# headers, and a package config that provides irregfix_transform() and
# IRREGFIX_NVCC. find_package(irregfix CONFIG) works from the
# install prefix and from this build tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(IRREGFIX_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/irregfix" CACHE STRING
    "Where the package config is installed, relative to the prefix")
set(IRREGFIX_PACKAGE_HAS_RUNTIME OFF)
set(IRREGFIX_PACKAGE_HAS_TOOL OFF)

if(TARGET irregfix_runtime)
  set(IRREGFIX_PACKAGE_HAS_RUNTIME ON)
  set_target_properties(irregfix_runtime PROPERTIES EXPORT_NAME runtime)
  install(TARGETS irregfix_runtime EXPORT irregfixTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY runtime/include/irregfix DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()
if(TARGET irregfix)
  set(IRREGFIX_PACKAGE_HAS_TOOL ON)
  # The tool finds the stubs at <bin>/../lib/irregfix/include (lib/CMakeLists.txt installs them).
  install(TARGETS irregfix EXPORT irregfixTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(TARGET irregfix-nvcc)
  # Beside the tool, which it runs; it finds the runtime at <prefix>/${CMAKE_INSTALL_LIBDIR}.
  set_target_properties(irregfix-nvcc PROPERTIES EXPORT_NAME nvcc)
  install(TARGETS irregfix-nvcc EXPORT irregfixTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

if(IRREGFIX_PACKAGE_HAS_RUNTIME OR IRREGFIX_PACKAGE_HAS_TOOL)
  install(EXPORT irregfixTargets NAMESPACE irregfix:: DESTINATION ${IRREGFIX_INSTALL_CMAKEDIR})
  export(EXPORT irregfixTargets NAMESPACE irregfix:: FILE "${PROJECT_BINARY_DIR}/irregfixTargets.cmake")
endif()

write_basic_package_version_file("${PROJECT_BINARY_DIR}/irregfixConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
# The installed config, and one for the build tree (-Dirregfix_DIR=<build>).
configure_package_config_file(cmake/irregfixConfig.cmake.in
                              "${PROJECT_BINARY_DIR}/install/irregfixConfig.cmake"
                              INSTALL_DESTINATION ${IRREGFIX_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/irregfixConfig.cmake.in
                              "${PROJECT_BINARY_DIR}/irregfixConfig.cmake"
                              INSTALL_DESTINATION "${PROJECT_BINARY_DIR}"
                              INSTALL_PREFIX "${PROJECT_BINARY_DIR}")
configure_file(cmake/irregfixTransform.cmake "${PROJECT_BINARY_DIR}/irregfixTransform.cmake" COPYONLY)
install(FILES "${PROJECT_BINARY_DIR}/install/irregfixConfig.cmake"
              "${PROJECT_BINARY_DIR}/irregfixConfigVersion.cmake"
              cmake/irregfixTransform.cmake
        DESTINATION ${IRREGFIX_INSTALL_CMAKEDIR})
