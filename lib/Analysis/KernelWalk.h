// One walk over a kernel's code and the bodies of the functions it calls, for
// the analyses that judge that code as a whole: whether its threads may be
// permuted (Permutability), its blocks split into chunks (Chunkability), its
// neighbour reads staged in shared memory (Shareability), a loop of it run
// from the host (Hoistability). The walk visits every statement, expression
// and variable, follows the calls the analysis asks it to (each function
// once), and stops at the first reason the analysis gives. An analysis says
// only what each thing it meets means: a KernelJudge.
#pragma once

#include "Analysis/Calls.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace irregfix {

// Where the walk is.
struct WalkPlace {
  // The called function being walked (its definition); null in the code the
  // walk started in.
  const clang::FunctionDecl *Callee = nullptr;
  // How many lambdas and local classes of that function are around.
  unsigned Nested = 0;
};

// What one analysis looks for. Each hook returns "" to go on, or the reason
// that ends the walk.
class KernelJudge {
public:
  virtual ~KernelJudge() = default;
  // Whether to walk S and what is inside it (false: S is skipped whole).
  virtual bool enters(const clang::Stmt *) { return true; }
  // Every statement and expression, before what is inside it.
  virtual std::string statement(const clang::Stmt *, const WalkPlace &) { return ""; }
  // Every variable declared.
  virtual std::string variable(const clang::VarDecl *, const WalkPlace &) { return ""; }
  // A call (which statement() has seen): "" with Follow set to walk the
  // callee's body (a function of the program, each once), or the reason.
  virtual std::string call(const clang::CallExpr *C, CallKind Kind, const clang::FunctionDecl *F,
                           const WalkPlace &At, bool &Follow) = 0;
};

// Walks a kernel's body and what it calls; the first reason, or "".
std::string walkKernel(const clang::FunctionDecl *Kernel, KernelJudge &Judge, const clang::SourceManager &SM);

// Walks statements of a kernel (each callee once over all of them); the first
// reason, or "".
std::string walkCode(llvm::ArrayRef<const clang::Stmt *> Code, KernelJudge &Judge,
                     const clang::SourceManager &SM);

} // namespace irregfix
