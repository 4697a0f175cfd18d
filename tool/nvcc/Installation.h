// Where irregfix-nvcc finds what it runs and adds: the real nvcc, the irregfix
// tool, the runtime library and its headers.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace irregfix::nvcc {

// The environment the wrapper reads, gathered once (tests build it by hand).
struct Environment {
  std::string RealNvcc;   // IRREGFIX_NVCC_REAL
  std::string Tool;       // IRREGFIX_NVCC_TOOL
  std::string ToolArgs;   // IRREGFIX_NVCC_TOOL_ARGS
  std::string CacheDir;   // IRREGFIX_NVCC_CACHE_DIR
  std::string Timeout;    // IRREGFIX_NVCC_TIMEOUT
  bool Disabled = false;  // IRREGFIX_NVCC_DISABLE
  bool Verbose = false;   // IRREGFIX_NVCC_VERBOSE
  bool Nested = false;    // IRREGFIX_NVCC_ACTIVE: run by a wrapper's nvcc (a wrapper found as the real nvcc)
  std::string CudaPath;   // CUDA_PATH
  std::string Home, XdgCacheHome;

  static Environment fromProcess();
};

struct Installation {
  std::string Tool;            // the irregfix executable
  std::string RuntimeLibrary;  // libirregfix_runtime.a
  std::string RuntimeInclude;  // the directory holding irregfix/
};

// Marks the processes the wrapper starts, so that a wrapper they run (one
// found as the real nvcc) passes its command straight on.
inline constexpr const char *NestedVariable = "IRREGFIX_NVCC_ACTIVE";
void markNested();

// The wrapper's own path, for what is installed beside it.
std::string wrapperPath(const char *Argv0);

// The tool beside the wrapper (<prefix>/bin, or the build tree's tool/), and
// the runtime in <prefix>/lib and <prefix>/include, else where this build tree
// made it. Empty members where nothing is found.
Installation findInstallation(llvm::StringRef WrapperPath, const Environment &Env);

// The real nvcc: $IRREGFIX_NVCC_REAL, else the first `nvcc` on PATH, else
// $CUDA_PATH/bin/nvcc, else /usr/local/cuda/bin/nvcc; never this wrapper.
std::optional<std::string> findRealNvcc(llvm::StringRef WrapperPath, const Environment &Env);

// The CUDA installation a given nvcc belongs to (<dir>/bin/nvcc with
// <dir>/include/cuda_runtime.h); empty when it is not laid out so.
std::string cudaPathOf(llvm::StringRef Nvcc);

// Where the cache lives: $IRREGFIX_NVCC_CACHE_DIR, else
// $XDG_CACHE_HOME/irregfix-nvcc, else ~/.cache/irregfix-nvcc.
std::string cacheRoot(const Environment &Env);

} // namespace irregfix::nvcc
