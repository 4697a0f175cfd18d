# Finds Clang/LLVM 19 through their CMake packages and pins the supported range.
set(IRREGFIX_LLVM_MAJOR 19)
find_package(LLVM CONFIG
  HINTS /usr/lib/llvm-${IRREGFIX_LLVM_MAJOR}/lib/cmake/llvm NO_DEFAULT_PATH)
if(NOT LLVM_FOUND)
  find_package(LLVM CONFIG)
endif()
if(NOT LLVM_FOUND OR NOT LLVM_VERSION_MAJOR EQUAL IRREGFIX_LLVM_MAJOR)
  message(FATAL_ERROR
    "irregfix needs LLVM ${IRREGFIX_LLVM_MAJOR} (found '${LLVM_VERSION}'). "
    "Install llvm-${IRREGFIX_LLVM_MAJOR}-dev and libclang-${IRREGFIX_LLVM_MAJOR}-dev "
    "(scripts/setup.sh does), or set LLVM_DIR to an LLVM ${IRREGFIX_LLVM_MAJOR} build.")
endif()
find_package(Clang CONFIG REQUIRED HINTS "${LLVM_INSTALL_PREFIX}/lib/cmake/clang")
message(STATUS "irregfix: Clang/LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_INSTALL_PREFIX}")

# Clang's resource directory (builtin headers such as __clang_cuda_runtime_wrapper.h),
# baked in as the first place the tool looks.
set(IRREGFIX_CLANG_RESOURCE_DIR
  "${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}" CACHE PATH "Clang resource directory")
set(IRREGFIX_LLVM_TOOLS_DIR "${LLVM_TOOLS_BINARY_DIR}" CACHE PATH "Where FileCheck and not live")
