// Options that shape one irregfix run, passed down as a value (no globals).
#pragma once

#include <string>

namespace irregfix {

struct CudaOptions {
  std::string CudaPath;      // empty: CUDA_PATH, nvcc on PATH, /usr/local/cuda
  std::string GpuArch = "sm_90";
  std::string ResourceDir;   // empty: probe for Clang's builtin CUDA headers
  std::string StubHeadersDir; // empty: next to the tool, else the source tree's lib/Headers
};

} // namespace irregfix
