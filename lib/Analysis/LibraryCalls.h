// What a host call of a function the tool cannot read (the CUDA runtime and
// driver APIs, CUDA's libraries, MPI, the C and C++ standard libraries) may do
// to device memory. The cache soundness rule needs it: a copy is served only
// where nothing can have written its sources since it was built, so a call is
// either known not to write device memory, known to write memory the caller can
// name, or treated as code that may write anything.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

namespace irregfix {

enum class LibraryKind {
  NoDeviceWrites, // writes no device memory the runtime caches (it may run callables it is given)
  CopiesInto,     // cudaMemcpy*/cudaMemset* family: writes its destination argument
  CopiesToSymbol, // cudaMemcpyToSymbol(Async): writes a __device__ variable
  Frees,          // cudaFree & co: the memory at its argument goes away
  Launches,       // runs kernels the tool cannot follow (cudaLaunchKernel, graphs, the driver API)
  UnnamedCopy,    // writes device memory at addresses the call does not name as pointers
  ResetsDevice,   // destroys the device's memory, streams and events (cudaDeviceReset)
  WritesPointerArgs, // writes only what its non-const pointer arguments point to
                     // (cuBLAS, cuFFT, cuRAND, cuSOLVER, cuSPARSE, NCCL, MPI, Thrust, CUB)
  Unknown,        // a function of some library: it may write any device memory
};

struct LibraryCall {
  LibraryKind Kind = LibraryKind::Unknown;
  unsigned Destination = 0; // CopiesInto, Frees: the argument written or freed
  // CopiesInto: the argument holding the cudaMemcpyKind, or -1
  int KindArgument = -1;
};

// Whether F is a library function: a builtin, or declared in a system header.
bool isLibraryFunction(const clang::FunctionDecl *F, const clang::SourceManager &SM);

// A library function given no pointer (min, max, abs, math): its value comes
// from its arguments alone, and it stores nothing.
bool computesFromArguments(const clang::CallExpr *C, const clang::FunctionDecl *F, const clang::SourceManager &SM);

// How a call of library function F acts on device memory.
LibraryCall classifyLibraryCall(const clang::FunctionDecl *F, const clang::SourceManager &SM);

// Whether the pointer type T (of a WritesPointerArgs argument) may lead to
// memory other than what it points to: a pointer to a pointer, to a struct that
// holds pointers, or a library handle that keeps user pointers (cuSPARSE's
// sparse and dense matrix and vector descriptors). A call given one may write
// memory its caller cannot name.
bool reachesOtherMemory(clang::QualType T);

} // namespace irregfix
