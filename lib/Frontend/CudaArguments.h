// Everything Clang needs to parse a real .cu file, in one argument adjuster.
#pragma once

#include "clang/Tooling/ArgumentsAdjusters.h"

#include <optional>
#include <string>
#include <vector>

namespace irregfix {

// Where the CUDA toolkit is: the option, $CUDA_PATH, the directory above `nvcc`
// on PATH, /usr/local/cuda. Nothing when none has include/cuda_runtime.h.
std::optional<std::string> findCudaPath(const std::string &Requested);

// Clang's resource directory: the one that holds __clang_cuda_runtime_wrapper.h.
std::optional<std::string> findResourceDir(const std::string &Requested, const char *Argv0);

// The directory of irregfix's stub headers for files CUDA 13 removed.
std::optional<std::string> findStubHeadersDir(const std::string &Requested, const char *Argv0);

// The directory of the host compiler's own headers that holds omp.h (GCC's
// internal include directory, the newest GCC's), which nvcc's host compiler
// finds and Clang does not; nothing when there is none.
std::optional<std::string> findHostOpenMPHeaderDir();

// What the parse adds so that it reads nvcc's dialect: nvcc's predefined
// version macros for the toolkit at CudaPath, `register` accepted (nvcc warns
// in C++17, Clang refuses), omp.h after every other include directory, and
// the stub header of nvcc's other predefinitions (lib/Headers/irregfix_nvcc_dialect.h).
std::vector<std::string> nvccDialectFlags(const std::string &CudaPath, const std::string &StubHeadersDir);

// Adds -x cuda, --cuda-host-only, --cuda-path, --cuda-gpu-arch, -resource-dir,
// -Wno-unknown-cuda-version, the stub and CCCL include paths, the stub header
// that gives host code nvcc's min/max overloads, nvcc's dialect
// (nvccDialectFlags); drops nvcc-only flags a compilation database may carry.
// Paths must already be resolved.
clang::tooling::ArgumentsAdjuster cudaArgumentsAdjuster(const std::string &CudaPath,
                                                        const std::string &GpuArch,
                                                        const std::string &ResourceDir,
                                                        const std::string &StubHeadersDir);

} // namespace irregfix
