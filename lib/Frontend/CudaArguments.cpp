#include "Frontend/CudaArguments.h"
#include "Frontend/CudaVersion.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace clang::tooling;

namespace irregfix {

static bool exists(const llvm::Twine &P) { return llvm::sys::fs::exists(P); }

static std::string exeDir(const char *Argv0) {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  return std::string(llvm::sys::path::parent_path(Exe));
}

std::optional<std::string> findCudaPath(const std::string &Requested) {
  auto HasRuntime = [](llvm::StringRef Dir) {
    return !Dir.empty() && exists(Dir + "/include/cuda_runtime.h");
  };
  if (!Requested.empty())
    return HasRuntime(Requested) ? std::optional<std::string>(Requested) : std::nullopt;
  if (const char *Env = std::getenv("CUDA_PATH"); Env && HasRuntime(Env))
    return std::string(Env);
  if (auto Nvcc = llvm::sys::findProgramByName("nvcc")) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(*Nvcc, Real)) {
      llvm::StringRef Root = llvm::sys::path::parent_path(llvm::sys::path::parent_path(Real));
      if (HasRuntime(Root))
        return Root.str();
    }
  }
  if (HasRuntime("/usr/local/cuda"))
    return std::string("/usr/local/cuda");
  return std::nullopt;
}

std::optional<std::string> findResourceDir(const std::string &Requested, const char *Argv0) {
  auto HasWrapper = [](llvm::StringRef Dir) {
    return exists(Dir + "/include/__clang_cuda_runtime_wrapper.h");
  };
  if (!Requested.empty())
    return HasWrapper(Requested) ? std::optional<std::string>(Requested) : std::nullopt;
  if (HasWrapper(IRREGFIX_CLANG_RESOURCE_DIR))
    return std::string(IRREGFIX_CLANG_RESOURCE_DIR);
  // A relocated install: <prefix>/bin/irregfix next to <prefix>/lib/clang/<major>.
  std::string Guess = exeDir(Argv0) + "/../lib/clang/" + std::to_string(LLVM_VERSION_MAJOR);
  if (HasWrapper(Guess))
    return Guess;
  return std::nullopt;
}

std::optional<std::string> findStubHeadersDir(const std::string &Requested, const char *Argv0) {
  auto HasStubs = [](llvm::StringRef Dir) { return exists(Dir + "/texture_fetch_functions.h"); };
  for (const std::string &Dir : {Requested, exeDir(Argv0) + "/../lib/irregfix/include",
                                 std::string(IRREGFIX_SOURCE_HEADERS_DIR)})
    if (!Dir.empty() && HasStubs(Dir))
      return Dir;
  return std::nullopt;
}

std::optional<std::string> findHostOpenMPHeaderDir() {
  // <root>/<target triple>/<version>/include/omp.h, the highest version first.
  std::optional<std::string> Best;
  unsigned BestMajor = 0;
  for (const char *Root : {"/usr/lib/gcc", "/usr/lib64/gcc", "/usr/local/lib/gcc"}) {
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator T(Root, EC), End; !EC && T != End; T.increment(EC)) {
      std::error_code EC2;
      for (llvm::sys::fs::directory_iterator V(T->path(), EC2); !EC2 && V != End; V.increment(EC2)) {
        unsigned Major = 0;
        if (llvm::sys::path::filename(V->path()).consumeInteger(10, Major) && Major == 0)
          continue;
        std::string Dir = V->path() + "/include";
        if (exists(Dir + "/omp.h") && (!Best || Major > BestMajor)) {
          Best = Dir;
          BestMajor = Major;
        }
      }
    }
  }
  return Best;
}

std::vector<std::string> nvccDialectFlags(const std::string &CudaPath, const std::string &StubHeadersDir) {
  std::vector<std::string> Out;
  if (std::optional<CudaVersionInfo> V = readCudaVersion(CudaPath)) {
    Out.push_back("-D__CUDACC_VER_MAJOR__=" + std::to_string(V->Major));
    Out.push_back("-D__CUDACC_VER_MINOR__=" + std::to_string(V->Minor));
    Out.push_back("-D__CUDACC_VER_BUILD__=" + std::to_string(readNvccBuild(CudaPath)));
  }
  Out.push_back("-Wno-register");
  if (std::optional<std::string> OpenMP = findHostOpenMPHeaderDir()) {
    Out.push_back("-idirafter");
    Out.push_back(*OpenMP);
  }
  Out.push_back("-include");
  Out.push_back(StubHeadersDir + "/irregfix_nvcc_dialect.h");
  return Out;
}

// nvcc options a compile_commands.json may hold that Clang does not accept.
static bool isNvccOnly(llvm::StringRef A) {
  return A.starts_with("-gencode") || A.starts_with("--generate-code") ||
         A.starts_with("-arch=") || A.starts_with("--gpu-architecture") ||
         A.starts_with("-Xcompiler") || A.starts_with("--compiler-options") ||
         A.starts_with("-Xptxas") || A.starts_with("--expt-") || A == "-forward-unknown-to-host-compiler" ||
         A.starts_with("--use_fast_math") || A.starts_with("-rdc") ||
         A.starts_with("--relocatable-device-code") || A.starts_with("-ccbin") ||
         A.starts_with("--options-file") || A == "-x" || A == "cu";
}

ArgumentsAdjuster cudaArgumentsAdjuster(const std::string &CudaPath, const std::string &GpuArch,
                                        const std::string &ResourceDir,
                                        const std::string &StubHeadersDir) {
  const std::vector<std::string> Dialect = nvccDialectFlags(CudaPath, StubHeadersDir);
  return [=](const CommandLineArguments &Args, llvm::StringRef File) {
    CommandLineArguments Out;
    for (size_t I = 0; I < Args.size(); ++I) {
      llvm::StringRef A = Args[I];
      if (I > 0 && isNvccOnly(A)) {
        // Two-word forms: -x cu, -ccbin PATH, -Xcompiler FLAGS, -arch sm_90.
        if ((A == "-x" || A == "-ccbin" || A == "-Xcompiler" || A == "-Xptxas" ||
             A == "--options-file") && I + 1 < Args.size())
          ++I;
        continue;
      }
      Out.push_back(Args[I]);
    }
    // Insert after argv[0] so that the file and anything after `--` stay last.
    CommandLineArguments Extra = {
        "-x", "cuda", "--cuda-host-only", "--cuda-path=" + CudaPath,
        "--cuda-gpu-arch=" + GpuArch, "-resource-dir", ResourceDir,
        "-Wno-unknown-cuda-version", "-isystem", StubHeadersDir,
        "-include", StubHeadersDir + "/irregfix_host_minmax.h", // host min/max as nvcc has them
        "-isystem", CudaPath + "/include/cccl", "-fsyntax-only"};
    Extra.insert(Extra.end(), Dialect.begin(), Dialect.end());
    Out.insert(Out.begin() + (Out.empty() ? 0 : 1), Extra.begin(), Extra.end());
    return Out;
  };
}

} // namespace irregfix
