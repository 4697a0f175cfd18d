// The device functions a kernel calls, each with the chain of calls that
// reaches it, and how a function's parameters stand for the kernel's values
// along that chain: which of its pointers are which kernel arrays, which of its
// integers hold the kernel's thread index. A site found in a called function
// (SiteFinder.h) is judged and rewritten through its chain.
#pragma once

#include "Analysis/ArrayRef.h"
#include "Analysis/PointerAliases.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace irregfix {

class DeviceOnlyCode;

// How deep calls are followed for sites: kernel -> f -> g -> h -> i.
constexpr unsigned kMaxCallDepth = 4;

// Calls[i] is written in Functions[i - 1] (the kernel for i = 0) and calls
// Functions[i]; the last function holds the code.
struct CallChain {
  std::vector<const clang::CallExpr *> Calls;
  std::vector<const clang::FunctionDecl *> Functions;
  const clang::FunctionDecl *callee() const { return Functions.back(); }
};

// A pointer parameter the calls bind into a kernel array at an offset
// (`f(P + e)`, `f(&P[e])`): a read `p[i]` reads `P[e + i]`.
struct OffsetBinding {
  ArrayRef Array; // the kernel's array
  // The offsets whose sum is e, written in the kernel (the chain's first
  // call); empty when a function between adds them.
  llvm::SmallVector<const clang::Expr *, 2> Offsets;
  bool InKernel = false; // Offsets are the kernel's (the first call's argument)
  // Set when the offset is not followed at all (a local pointer assigned in
  // the caller, either of two pointers into the array, a parameter the caller
  // steps): why, as the end of "'p' is ..." for the argument.
  std::string NotFollowed;
};

// A chain seen from the kernel: the arrays and thread-index parameters of its
// last function in the kernel's terms.
struct BoundChain {
  CallChain Chain;
  // The last function's pointer (or by-value struct) parameters, as the kernel
  // array (or struct parameter, with the fields the argument names) they are.
  std::map<const clang::ParmVarDecl *, ArrayRef> Params;
  // Its integer parameters that hold the kernel's thread index.
  std::set<const clang::ParmVarDecl *> ThreadParams;
  // Its pointer and reference parameters bound to memory other than device
  // memory (on the chip, the thread's own, the kernel's arguments).
  ParamSpaces Spaces;
  // Its pointer parameters bound into a kernel array at an offset.
  std::map<const clang::ParmVarDecl *, OffsetBinding> Offsets;
  // Why each of its pointer parameters bound to none of the above is not: what
  // the call passes, as the end of "... (the call passes 'p'): <why>".
  std::map<const clang::ParmVarDecl *, std::string> UnboundBecause;
  // Its write set with the kernel's writes bound in (WriteSet::throughCall).
  WriteSet Writes;
  // Why its code cannot be rewritten at the call, whatever it reads ("" when it can).
  std::string RefusedBecause;

  // A of the last function as the kernel names it, or none.
  ArrayRef kernelArray(const ArrayRef &A) const;
  // The argument the last call passes for P, as written.
  const clang::Expr *argumentFor(const clang::ParmVarDecl *P) const;
  // How the last function's array A (a parameter, no field) is bound at an offset, or null.
  const OffsetBinding *offsetBinding(const ArrayRef &A) const;
  // A's binding at an offset when a site can read A as a view of the kernel
  // array: an offset the launch computes (isLaunchOffset), the array written
  // neither by the kernel (KernelWrites) nor through A; else null.
  const OffsetBinding *viewOf(const ArrayRef &A, const WriteSet &KernelWrites) const;
  // Why A of the last function is no kernel array its code can be rewritten
  // over: memory other than device memory, a kernel array the kernel writes
  // (KernelWrites) read at an offset, memory the function itself writes, or an
  // argument the kernel does not pass unchanged (and what it is instead, where
  // known). A has no kernelArray.
  std::string unboundWhy(const ArrayRef &A, const WriteSet &KernelWrites, const clang::ASTContext &Ctx) const;
};

// Whether O's offsets are the kernel's (the chain's first call adds them all)
// and computable at the launch from the kernel's arguments: then `P + e`
// points at the same element in every thread, and the launch can name it.
bool isLaunchOffset(const OffsetBinding &O, const WriteSet &KernelWrites);

// Every defined device function Kernel calls, directly or through up to
// kMaxCallDepth calls, once each (the first chain that reaches it, in source
// order), bound to the kernel. KernelWrites: the kernel's write set.
std::vector<BoundChain> boundCallChains(const clang::FunctionDecl *Kernel, const WriteSet &KernelWrites,
                                        clang::ASTContext &Ctx, const DeviceOnlyCode *DeviceOnly);

// The name of the copy of F written for Kernel's sites: `<f>_irregfix_<kernel>`.
std::string calleeCopyName(const clang::FunctionDecl *F, const clang::FunctionDecl *Kernel);

} // namespace irregfix
