#include "Installation.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <stdlib.h>

namespace irregfix::nvcc {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

std::string env(const char *Name) {
  std::optional<std::string> Value = llvm::sys::Process::GetEnv(Name);
  return Value ? *Value : "";
}

// Set to anything but "", "0", "false", "no" or "off".
bool envFlag(const char *Name) {
  std::string V = llvm::StringRef(env(Name)).lower();
  return !V.empty() && V != "0" && V != "false" && V != "no" && V != "off";
}

std::string joinPath(llvm::StringRef A, llvm::StringRef B, llvm::StringRef C = "") {
  llvm::SmallString<256> P(A);
  path::append(P, B, C);
  path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

bool sameFile(llvm::StringRef A, llvm::StringRef B) {
  bool Same = false;
  return !fs::equivalent(A, B, Same) && Same;
}

} // namespace

Environment Environment::fromProcess() {
  Environment E;
  E.RealNvcc = env("IRREGFIX_NVCC_REAL");
  E.Tool = env("IRREGFIX_NVCC_TOOL");
  E.ToolArgs = env("IRREGFIX_NVCC_TOOL_ARGS");
  E.CacheDir = env("IRREGFIX_NVCC_CACHE_DIR");
  E.Timeout = env("IRREGFIX_NVCC_TIMEOUT");
  E.Disabled = envFlag("IRREGFIX_NVCC_DISABLE");
  E.Verbose = envFlag("IRREGFIX_NVCC_VERBOSE");
  E.Nested = envFlag(NestedVariable);
  E.CudaPath = env("CUDA_PATH");
  E.Home = env("HOME");
  E.XdgCacheHome = env("XDG_CACHE_HOME");
  return E;
}

void markNested() { setenv(NestedVariable, "1", /*overwrite=*/1); }

std::string wrapperPath(const char *Argv0) {
  static int Anchor;
  std::string Exe = fs::getMainExecutable(Argv0, &Anchor);
  return Exe.empty() ? std::string(Argv0) : Exe;
}

Installation findInstallation(llvm::StringRef WrapperPath, const Environment &Env) {
  Installation I;
  const std::string Bin = path::parent_path(WrapperPath).str();
  I.Tool = !Env.Tool.empty() ? Env.Tool : joinPath(Bin, "irregfix");

  // Installed: <prefix>/bin/irregfix-nvcc, <prefix>/<libdir>/libirregfix_runtime.a, <prefix>/include/irregfix.
  const std::string Prefix = joinPath(Bin, "..");
  std::string Library = joinPath(Prefix, IRREGFIX_NVCC_INSTALL_LIBDIR, "libirregfix_runtime.a");
  std::string Include = joinPath(Prefix, IRREGFIX_NVCC_INSTALL_INCLUDEDIR);
  if (!fs::is_regular_file(Library) || !fs::is_directory(Include + "/irregfix")) {
    // The build tree's copy: where this build made the runtime.
    Library = IRREGFIX_NVCC_BUILD_RUNTIME_LIBRARY;
    Include = IRREGFIX_NVCC_SOURCE_RUNTIME_INCLUDE;
  }
  if (fs::is_regular_file(Library) && fs::is_directory(Include + "/irregfix")) {
    I.RuntimeLibrary = Library;
    I.RuntimeInclude = Include;
  }
  return I;
}

std::optional<std::string> findRealNvcc(llvm::StringRef WrapperPath, const Environment &Env) {
  if (!Env.RealNvcc.empty() && !sameFile(Env.RealNvcc, WrapperPath))
    return Env.RealNvcc;
  llvm::SmallVector<llvm::StringRef, 16> Dirs;
  std::string Path = env("PATH");
  llvm::StringRef(Path).split(Dirs, llvm::sys::EnvPathSeparator, -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Dir : Dirs) {
    std::string Candidate = joinPath(Dir, "nvcc");
    if (fs::can_execute(Candidate) && !fs::is_directory(Candidate) && !sameFile(Candidate, WrapperPath))
      return Candidate;
  }
  for (llvm::StringRef Root : {llvm::StringRef(Env.CudaPath), llvm::StringRef("/usr/local/cuda")}) {
    if (Root.empty())
      continue;
    std::string Candidate = joinPath(Root, "bin", "nvcc");
    if (fs::can_execute(Candidate) && !sameFile(Candidate, WrapperPath))
      return Candidate;
  }
  return std::nullopt;
}

std::string cudaPathOf(llvm::StringRef Nvcc) {
  llvm::SmallString<256> Real;
  if (fs::real_path(Nvcc, Real))
    return "";
  std::string Root = joinPath(path::parent_path(Real), "..");
  return fs::is_regular_file(Root + "/include/cuda_runtime.h") ? Root : "";
}

std::string cacheRoot(const Environment &Env) {
  if (!Env.CacheDir.empty())
    return Env.CacheDir;
  if (!Env.XdgCacheHome.empty())
    return joinPath(Env.XdgCacheHome, "irregfix-nvcc");
  if (!Env.Home.empty())
    return joinPath(Env.Home, ".cache", "irregfix-nvcc");
  llvm::SmallString<128> Temp;
  path::system_temp_directory(/*ErasedOnReboot=*/true, Temp);
  return joinPath(Temp, "irregfix-nvcc-cache");
}

} // namespace irregfix::nvcc
