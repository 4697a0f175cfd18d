#include "Analysis/LibraryCalls.h"
#include "Analysis/Calls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Type.h"

#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace irregfix {

namespace {

// The API name without the suffixes the headers add (per-thread default
// stream: _ptsz, _ptds; driver API versions: _v2, _v3).
StringRef apiName(StringRef Name) {
  for (StringRef Suffix : {"_ptsz", "_ptds", "_v2", "_v3"})
    Name.consume_back(Suffix);
  return Name;
}

// The CUDA runtime API (cuda_runtime_api.h, cuda_runtime.h).
LibraryCall runtimeCall(StringRef Name) {
  LibraryCall C;
  auto Copy = [&](unsigned Dest, int Kind) {
    C.Kind = LibraryKind::CopiesInto;
    C.Destination = Dest;
    C.KindArgument = Kind;
    return C;
  };
  // Copies and sets whose destination is a pointer argument.
  if (Name == "cudaMemcpy" || Name == "cudaMemcpyAsync")
    return Copy(0, 3);
  if (Name == "cudaMemcpy2D" || Name == "cudaMemcpy2DAsync")
    return Copy(0, 6);
  if (Name == "cudaMemcpyFromSymbol" || Name == "cudaMemcpyFromSymbolAsync")
    return Copy(0, 4);
  if (Name == "cudaMemcpyFromArray" || Name == "cudaMemcpyFromArrayAsync")
    return Copy(0, 5);
  if (Name == "cudaMemcpy2DFromArray" || Name == "cudaMemcpy2DFromArrayAsync")
    return Copy(0, 7);
  if (Name == "cudaMemcpyPeer" || Name == "cudaMemcpyPeerAsync" || Name == "cudaMemset" ||
      Name == "cudaMemsetAsync" || Name == "cudaMemset2D" || Name == "cudaMemset2DAsync")
    return Copy(0, -1);
  if (Name == "cudaMemcpyToSymbol" || Name == "cudaMemcpyToSymbolAsync") {
    C.Kind = LibraryKind::CopiesToSymbol;
    return C;
  }
  if (Name == "cudaFree" || Name == "cudaFreeAsync" || Name == "cudaFreeHost" || Name == "cudaHostUnregister") {
    C.Kind = LibraryKind::Frees;
    return C;
  }
  // Copies into CUDA arrays write no pointer memory: no source lives there.
  if (Name == "cudaMemcpyToArray" || Name == "cudaMemcpyToArrayAsync" || Name == "cudaMemcpy2DToArray" ||
      Name == "cudaMemcpy2DToArrayAsync" || Name == "cudaMemcpyArrayToArray" || Name == "cudaMemcpy2DArrayToArray") {
    C.Kind = LibraryKind::NoDeviceWrites;
    return C;
  }
  if (Name.starts_with("cudaMemcpy") || Name.starts_with("cudaMemset")) { // 3D, batches
    C.Kind = LibraryKind::UnnamedCopy;
    return C;
  }
  if (Name == "cudaDeviceReset" || Name == "cudaThreadExit") {
    C.Kind = LibraryKind::ResetsDevice;
    return C;
  }
  if (Name.starts_with("cudaLaunchKernel") || Name.starts_with("cudaLaunchCooperativeKernel") ||
      Name == "cudaLaunch" || Name == "cudaGraphLaunch") {
    C.Kind = LibraryKind::Launches;
    return C;
  }
  // Calls that write no device memory: errors, devices, streams, events,
  // allocation, attributes, occupancy, texture objects, graphs being built.
  // A host function enqueued on a stream may not call CUDA: it writes host memory only.
  static const char *const Quiet[] = {
      "cudaConfigureCall", "cudaGetLastError", "cudaPeekAtLastError", "cudaGetErrorString", "cudaGetErrorName", "cudaDeviceSynchronize",
      "cudaSetDevice", "cudaGetDevice", "cudaGetDeviceCount", "cudaGetDeviceProperties", "cudaDeviceGetAttribute",
      "cudaDeviceSetLimit", "cudaDeviceGetLimit", "cudaDeviceSetCacheConfig", "cudaDeviceGetCacheConfig",
      "cudaDeviceSetSharedMemConfig", "cudaDeviceCanAccessPeer", "cudaDeviceEnablePeerAccess",
      "cudaDeviceDisablePeerAccess", "cudaDeviceGetPCIBusId", "cudaDeviceGetByPCIBusId", "cudaSetDeviceFlags",
      "cudaGetDeviceFlags", "cudaChooseDevice", "cudaInitDevice", "cudaDriverGetVersion", "cudaRuntimeGetVersion",
      "cudaFuncSetAttribute", "cudaFuncGetAttributes", "cudaFuncSetCacheConfig", "cudaFuncSetSharedMemConfig",
      "cudaFuncGetName", "cudaStreamCreate", "cudaStreamCreateWithFlags", "cudaStreamCreateWithPriority",
      "cudaStreamDestroy", "cudaStreamSynchronize", "cudaStreamQuery", "cudaStreamWaitEvent", "cudaStreamGetFlags",
      "cudaStreamGetPriority", "cudaStreamGetId", "cudaStreamGetDevice", "cudaStreamAddCallback",
      "cudaLaunchHostFunc", "cudaStreamAttachMemAsync", "cudaStreamIsCapturing", "cudaStreamGetCaptureInfo",
      "cudaStreamBeginCapture", "cudaStreamEndCapture", "cudaEventCreate", "cudaEventCreateWithFlags",
      "cudaEventRecord", "cudaEventRecordWithFlags", "cudaEventQuery", "cudaEventSynchronize",
      "cudaEventElapsedTime", "cudaEventDestroy", "cudaMalloc", "cudaMallocPitch", "cudaMalloc3D",
      "cudaMallocArray", "cudaMalloc3DArray", "cudaMallocAsync", "cudaMallocFromPoolAsync", "cudaMallocHost",
      "cudaHostAlloc", "cudaMallocManaged", "cudaHostRegister", "cudaHostGetDevicePointer", "cudaHostGetFlags",
      "cudaFreeArray", "cudaMemGetInfo", "cudaPointerGetAttributes", "cudaMemPrefetchAsync", "cudaMemAdvise",
      "cudaMemRangeGetAttribute", "cudaMemPoolCreate", "cudaMemPoolDestroy", "cudaMemPoolSetAttribute",
      "cudaMemPoolGetAttribute", "cudaMemPoolTrimTo", "cudaDeviceGetDefaultMemPool", "cudaDeviceGetMemPool",
      "cudaDeviceSetMemPool", "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
      "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", "cudaOccupancyMaxPotentialBlockSize",
      "cudaOccupancyMaxPotentialBlockSizeVariableSMem", "cudaOccupancyAvailableDynamicSMemPerBlock",
      "cudaCreateTextureObject", "cudaDestroyTextureObject", "cudaGetTextureObjectResourceDesc",
      "cudaCreateSurfaceObject", "cudaDestroySurfaceObject", "cudaCreateChannelDesc", "cudaGetChannelDesc",
      "cudaGetSymbolAddress", "cudaGetSymbolSize", "cudaGetFuncBySymbol", "cudaGetDriverEntryPoint",
      "cudaGetDriverEntryPointByVersion", "cudaProfilerStart", "cudaProfilerStop", "cudaIpcGetMemHandle",
      "cudaIpcGetEventHandle", "cudaIpcOpenEventHandle", "cudaGraphCreate", "cudaGraphDestroy",
      "cudaGraphInstantiate", "cudaGraphInstantiateWithFlags", "cudaGraphExecDestroy", "cudaGraphUpload",
      "cudaGraphAddKernelNode", "cudaGraphAddMemcpyNode", "cudaGraphAddMemsetNode", "cudaGraphAddEmptyNode",
      "cudaGraphAddDependencies", "cudaGraphGetNodes", "cudaGraphExecKernelNodeSetParams",
      "cudaGraphExecUpdate", "cudaThreadExchangeStreamCaptureMode", "cudaCtxResetPersistingL2Cache",
      "cudaDeviceFlushGPUDirectRDMAWrites"};
  for (const char *Q : Quiet)
    if (Name == Q) {
      C.Kind = LibraryKind::NoDeviceWrites;
      return C;
    }
  return C; // any other runtime call (graphics interop, ...): unknown
}

// The CUDA driver API: addresses are integers (CUdeviceptr), never named.
LibraryCall driverCall(StringRef Name) {
  LibraryCall C;
  if (Name.starts_with("cuMemcpy") || Name.starts_with("cuMemset") || Name.starts_with("cuStreamWriteValue") ||
      Name.starts_with("cuStreamBatchMemOp") || Name.starts_with("cuMemFree"))
    C.Kind = LibraryKind::UnnamedCopy;
  else if (Name.starts_with("cuLaunch") || Name == "cuGraphLaunch")
    C.Kind = LibraryKind::Launches;
  else if (Name.starts_with("cuCtxDestroy") || Name.starts_with("cuDevicePrimaryCtxReset"))
    C.Kind = LibraryKind::ResetsDevice;
  else if (Name.starts_with("cuGraphicsMap") || Name.starts_with("cuGraphicsUnmap"))
    C.Kind = LibraryKind::Unknown;
  else
    C.Kind = LibraryKind::NoDeviceWrites;
  return C;
}

// Libraries that write what their pointer arguments point to and keep no user
// pointers between calls (a cuSPARSE descriptor keeps them: see
// reachesOtherMemory). MPI's nonblocking operations complete in a later call:
// those calls may write any buffer an earlier one was given.
bool writesPointerArgs(StringRef Name, const FunctionDecl *F) {
  if (Name.starts_with("MPI_") || Name.starts_with("PMPI_")) {
    static const char *const Completes[] = {"Wait", "Test", "Start", "Win_", "Get", "Put", "Accumulate",
                                            "Fetch_and_op", "Compare_and_swap", "Rget", "Rput",
                                            "Raccumulate", "Request_", "Finalize", "Grequest"};
    StringRef Op = Name.substr(Name.find('_') + 1);
    for (const char *P : Completes)
      if (Op.starts_with(P))
        return false;
    return true;
  }
  for (StringRef P : {"cublas", "cufft", "curand", "cusolver", "cusparse", "nccl", "cudnn", "cutensor", "npp",
                      "nvshmem"})
    if (Name.starts_with(P))
      return !Name.starts_with("cudnnBackend") && !Name.starts_with("cufftXt") && !Name.starts_with("nvshmemx_");
  return inNamespace(F, "thrust") || inNamespace(F, "cub");
}

// C and POSIX headers and the C++ standard library: they write host memory
// only (the runtime never caches a copy of memory the host can write).
bool isStandardLibrary(const FunctionDecl *F, const SourceManager &SM) {
  if (inNamespace(F, "std") || inNamespace(F, "__gnu_cxx") || inNamespace(F, "__cxxabiv1"))
    return true;
  if (!F->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  StringRef File = SM.getFilename(SM.getExpansionLoc(F->getLocation()));
  if (File.empty())
    return false;
  // Clang's own headers (intrinsics, CUDA wrappers) and glibc's internals.
  if (File.contains("/lib/clang/") || File.contains("/lib/llvm-") || File.contains("/bits/") ||
      File.contains("/sys/") || File.contains("/c++/"))
    return true;
  static const char *const CHeaders[] = {
      "stdio.h", "stdlib.h", "string.h", "strings.h", "math.h", "time.h", "unistd.h", "ctype.h", "assert.h",
      "errno.h", "fcntl.h", "signal.h", "stdint.h", "inttypes.h", "limits.h", "float.h", "locale.h", "wchar.h",
      "wctype.h", "fenv.h", "getopt.h", "libgen.h", "dirent.h", "omp.h", "pthread.h", "sched.h", "setjmp.h",
      "stdarg.h", "stddef.h", "complex.h", "alloca.h", "malloc.h", "memory.h", "err.h", "execinfo.h", "dlfcn.h"};
  StringRef Base = File.substr(File.find_last_of('/') + 1);
  for (const char *H : CHeaders)
    if (Base == H)
      return true;
  return false;
}

// CUDA's own headers: vector types, conversions, host math, launch helpers.
// CCCL (Thrust, CUB, libcu++) is told apart by namespace.
bool inCudaHeaders(const FunctionDecl *F, const SourceManager &SM) {
  std::string File = SM.getFilename(SM.getExpansionLoc(F->getLocation())).lower();
  StringRef Path(File);
  return Path.contains("/cuda") && (Path.contains("/include/") || Path.contains("/targets/")) &&
         !Path.contains("/cccl/");
}

} // namespace

bool isLibraryFunction(const FunctionDecl *F, const SourceManager &SM) {
  return F->getBuiltinID() || SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation()));
}

bool computesFromArguments(const CallExpr *C, const FunctionDecl *F, const SourceManager &SM) {
  return isLibraryFunction(F, SM) &&
         llvm::none_of(C->arguments(), [](const Expr *A) { return A->getType()->isPointerType(); });
}

LibraryCall classifyLibraryCall(const FunctionDecl *F, const SourceManager &SM) {
  LibraryCall C;
  if (!F->getIdentifier()) { // operators, conversions, constructors of library types
    C.Kind = inNamespace(F, "thrust") || inNamespace(F, "cub")          ? LibraryKind::WritesPointerArgs
             : isStandardLibrary(F, SM) || inCudaHeaders(F, SM) ? LibraryKind::NoDeviceWrites
                                                                        : LibraryKind::Unknown;
    return C;
  }
  StringRef Name = apiName(F->getName());
  const bool Global = F->getDeclContext()->getRedeclContext()->isTranslationUnit();
  if (Global && Name.starts_with("__cuda")) { // the launch configuration a <<<>>> pushes
    C.Kind = LibraryKind::NoDeviceWrites;
    return C;
  }
  if (Global && Name.starts_with("cuda"))
    return runtimeCall(Name);
  if (Global && Name.size() > 2 && Name.starts_with("cu") && isUppercase(Name[2]))
    return driverCall(Name);
  if (writesPointerArgs(Name, F)) {
    C.Kind = LibraryKind::WritesPointerArgs;
    return C;
  }
  if (F->getBuiltinID() || isStandardLibrary(F, SM)) {
    C.Kind = LibraryKind::NoDeviceWrites;
    return C;
  }
  if (inCudaHeaders(F, SM))
    C.Kind = LibraryKind::NoDeviceWrites;
  return C;
}

namespace {

bool holdsPointers(QualType T, int Depth) {
  T = T.getCanonicalType();
  if (Depth > 8)
    return true;
  if (T->isPointerType() || T->isReferenceType() || T->isMemberPointerType())
    return true;
  if (const auto *A = T->getAsArrayTypeUnsafe())
    return holdsPointers(A->getElementType(), Depth + 1);
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  if (!RD->hasDefinition())
    return true;
  for (const FieldDecl *F : RD->fields())
    if (holdsPointers(F->getType(), Depth + 1))
      return true;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (holdsPointers(B.getType(), Depth + 1))
      return true;
  return false;
}

} // namespace

bool reachesOtherMemory(QualType T) {
  if (!T->isPointerType())
    return holdsPointers(T, 0);
  QualType P = T->getPointeeType();
  if (P->isVoidType())
    return false;
  // Where a library writes a handle it creates (cublasHandle_t *): as the handle.
  if (P->isPointerType() && P->getPointeeType()->getAsRecordDecl() &&
      !P->getPointeeType()->getAsRecordDecl()->getDefinition())
    return reachesOtherMemory(P);
  const RecordDecl *RD = P->getAsRecordDecl();
  if (RD && !RD->getDefinition()) {
    // An opaque library handle. cuSPARSE's matrix and vector descriptors keep
    // the user's pointers; a const one (cusparseConst*Descr_t) is only read.
    StringRef Name = RD->getName();
    return !P.isConstQualified() && Name.starts_with("cusparse") &&
           (Name.starts_with("cusparseSp") || Name.starts_with("cusparseDn")) && Name.ends_with("Descr");
  }
  return holdsPointers(P, 0);
}

} // namespace irregfix
