#include "Frontend/CudaVersion.h"

#include "clang/Basic/Cuda.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
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

unsigned readNvccBuild(const std::string &CudaPath) {
  // The third number of "X.Y.Z".
  auto Build = [](llvm::StringRef Version) {
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    Version.split(Parts, '.');
    unsigned B = 0;
    return Parts.size() >= 3 && !Parts[2].getAsInteger(10, B) ? B : 0u;
  };
  // version.json: "cuda_nvcc" : { "name" : ..., "version" : "12.4.131" }
  if (auto Buf = llvm::MemoryBuffer::getFile(CudaPath + "/version.json")) {
    llvm::StringRef Text = (*Buf)->getBuffer();
    size_t At = Text.find("\"cuda_nvcc\"");
    if (At != llvm::StringRef::npos && (At = Text.find("\"version\"", At)) != llvm::StringRef::npos) {
      llvm::StringRef Rest = Text.substr(At + strlen("\"version\""));
      Rest = Rest.drop_until([](char C) { return C == '"'; }).drop_front();
      if (unsigned B = Build(Rest.take_until([](char C) { return C == '"'; })))
        return B;
    }
  }
  // dist-info/nvidia_cuda_nvcc-13.0.88.dist-info (toolkits installed as wheels).
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(CudaPath + "/dist-info", EC), End; !EC && It != End; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (Name.consume_front("nvidia_cuda_nvcc-") && Name.consume_back(".dist-info"))
      if (unsigned B = Build(Name))
        return B;
  }
  return 0;
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
