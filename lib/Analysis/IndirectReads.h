// Every read of memory in a kernel whose index depends on a value loaded from
// memory: the indirect reads. One walk over the kernel's body (lambdas
// included) and the bodies of the device functions it calls, each read with
// its index form (Analysis/IndexForm.h) and the loops around it. The site
// analyses decide which of them to rewrite; the report lists every one.
#pragma once

#include "Analysis/IndexForm.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace irregfix {

// A loop around a read, as far as the analyses need it: a `for` whose
// variable steps by one (`for (k = first; k < end; ++k)`, also `<=`, `!=`),
// or why it is not one.
struct LoopShape {
  const clang::Stmt *Loop = nullptr;       // ForStmt, WhileStmt or DoStmt
  const clang::VarDecl *Var = nullptr;     // its variable, when it has one
  const clang::Expr *First = nullptr;      // its first value
  const clang::Expr *End = nullptr;        // k < End (k <= End: EndInclusive)
  bool EndInclusive = false;
  std::string NotCanonical;                // why it is not such a loop ("" when it is)
  // A `for` that is such a loop but for its step, `k += Step` (or `k = k +
  // Step`), Step not naming k: set (and NotCanonical saying so) for the
  // analyses that number a strided loop's iterations.
  const clang::Expr *Step = nullptr;
  // Its bounds depend on values loaded from memory: A[k] is an indirect read.
  bool BoundsLoad = false;
};

struct IndirectRead {
  MemoryRead Mem;          // where the element lies
  FormRef Index;           // the element index's form (a load somewhere inside)
  ArrayRef Array;          // the array read, when a parameter or struct field names it
  // Through a local pointer into Array (PointerAliases.h): its offsets, which
  // Index includes and the read's own subscript does not.
  llvm::SmallVector<const clang::Expr *, 2> Offsets;
  std::vector<LoopShape> Loops; // the loops around the read, outermost first
  const clang::FunctionDecl *In = nullptr; // the kernel, or the device function the read is in
  bool Plain = true;       // only read (not written, its address not taken)
  bool InLambda = false;   // inside a lambda of the kernel
};

// The indirect reads of Kernel in source order (reads in called device
// functions after the kernel's own, each once). Writes: the kernel's.
std::vector<IndirectRead> findIndirectReads(const clang::FunctionDecl *Kernel, const WriteSet &Writes,
                                            clang::ASTContext &Ctx, const DeviceOnlyCode *DeviceOnly);

// The shape of a loop statement.
LoopShape loopShape(const clang::Stmt *Loop);

} // namespace irregfix
