// The CUDA version of an installation, to tell the user when it is newer than
// the Clang irregfix was built with knows (Clang then parses it as the latest
// version it knows; irregfix passes -Wno-unknown-cuda-version).
#pragma once

#include <optional>
#include <string>

namespace irregfix {

struct CudaVersionInfo {
  unsigned Major = 0, Minor = 0;
};

// CUDA_VERSION from <CudaPath>/include/cuda.h; nothing when it has none.
std::optional<CudaVersionInfo> readCudaVersion(const std::string &CudaPath);

// The build number of the toolkit's nvcc (88 of 13.0.88), as nvcc predefines
// it in __CUDACC_VER_BUILD__: from version.json, else the nvcc package's
// dist-info directory; 0 when neither says.
unsigned readNvccBuild(const std::string &CudaPath);

// "CUDA 13.0 at /usr/local/cuda is newer than Clang 19 knows; parsing as CUDA 12.5",
// or an empty string when Clang knows the version.
std::string newerCudaNote(const std::string &CudaPath, const CudaVersionInfo &V);

} // namespace irregfix
