// The device functions a kernel calls, each with the chain of calls that
// reaches it, and how a function's parameters stand for the kernel's values
// along that chain: which of its pointers are which kernel arrays, which of its
// integers hold the kernel's thread index. A site found in a called function
// (SiteFinder.h) is judged and rewritten through its chain.
#pragma once

#include "Analysis/ArrayRef.h"
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

// A chain seen from the kernel: the arrays and thread-index parameters of its
// last function in the kernel's terms.
struct BoundChain {
  CallChain Chain;
  // The last function's pointer (or by-value struct) parameters, as the kernel
  // array (or struct parameter, with the fields the argument names) they are.
  std::map<const clang::ParmVarDecl *, ArrayRef> Params;
  // Its integer parameters that hold the kernel's thread index.
  std::set<const clang::ParmVarDecl *> ThreadParams;
  // Its write set with the kernel's writes bound in (WriteSet::throughCall).
  WriteSet Writes;
  // Why its code cannot be rewritten at the call, whatever it reads ("" when it can).
  std::string RefusedBecause;

  // A of the last function as the kernel names it, or none.
  ArrayRef kernelArray(const ArrayRef &A) const;
  // The argument the last call passes for P, as written.
  const clang::Expr *argumentFor(const clang::ParmVarDecl *P) const;
};

// Every defined device function Kernel calls, directly or through up to
// kMaxCallDepth calls, once each (the first chain that reaches it, in source
// order), bound to the kernel. KernelWrites: the kernel's write set.
std::vector<BoundChain> boundCallChains(const clang::FunctionDecl *Kernel, const WriteSet &KernelWrites,
                                        clang::ASTContext &Ctx, const DeviceOnlyCode *DeviceOnly);

// The name of the copy of F written for Kernel's sites: `<f>_irregfix_<kernel>`.
std::string calleeCopyName(const clang::FunctionDecl *F, const clang::FunctionDecl *Kernel);

} // namespace irregfix
