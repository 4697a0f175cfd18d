#include "Frontend/CudaVersion.h"

#include "clang/Basic/Cuda.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VersionTuple.h"

namespace irregfix {

std::optional<CudaVersionInfo> readCudaVersion(const std::string &CudaPath) {
  auto Buf = llvm::MemoryBuffer::getFile(CudaPath + "/include/cuda.h");
  if (!Buf)
    return std::nullopt;
  llvm::StringRef Text = (*Buf)->getBuffer();
  for (size_t At = Text.find("#define CUDA_VERSION"); At != llvm::StringRef::npos;
       At = Text.find("#define CUDA_VERSION", At + 1)) {
    llvm::StringRef Rest = Text.substr(At + strlen("#define CUDA_VERSION"));
    if (Rest.empty() || !(Rest.front() == ' ' || Rest.front() == '\t'))
      continue;
    unsigned V = 0;
    if (Rest.ltrim().consumeInteger(10, V) || V == 0)
      continue;
    return CudaVersionInfo{V / 1000, (V % 1000) / 10};
  }
  return std::nullopt;
}

std::string newerCudaNote(const std::string &CudaPath, const CudaVersionInfo &V) {
  clang::CudaVersion Known = clang::ToCudaVersion(llvm::VersionTuple(V.Major, V.Minor));
  if (Known != clang::CudaVersion::UNKNOWN && Known <= clang::CudaVersion::PARTIALLY_SUPPORTED)
    return "";
  // Clang knows nothing newer than PARTIALLY_SUPPORTED and parses as that version.
  const char *Assumed = clang::CudaVersionToString(clang::CudaVersion::PARTIALLY_SUPPORTED);
  if (V.Major < 7)
    return ""; // older than anything Clang supports: Clang says so itself
  return "CUDA " + std::to_string(V.Major) + "." + std::to_string(V.Minor) + " at " + CudaPath +
         " is newer than Clang " + std::to_string(LLVM_VERSION_MAJOR) + " knows; parsing as CUDA " +
         Assumed;
}

} // namespace irregfix
