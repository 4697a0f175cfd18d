// Program-wide renumbering, the host's side: whether a file's launches may
// keep a domain renumbered (runtime/src/domain/domain.h), and what each launch
// and host call must tell the runtime. The runtime tracks every array by its
// address, renumbered or not, and restores it before anything but an
// indifferent launch sees it; the file's part is that nothing it does to
// device memory escapes a hook:
//  - every launch in the file names its kernel's roles (ElementNumbering.h);
//  - every copy or memset names its pointers; a library call given device
//    pointers (cuBLAS, Thrust, ...) restores every array (it may keep them);
//    unseen code already drops every copy, which restores them too;
//  - an array reaches a launch that may renumber it only as a variable that
//    holds nothing but its own cudaMalloc'd memory and is used only by such
//    calls, launches and comparisons (no alias the host could use unhooked).
#pragma once

#include "Analysis/ElementNumbering.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace irregfix {

struct DomainLaunch {
  const clang::CUDAKernelCallExpr *Call = nullptr;
  const KernelNumbering *Kernel = nullptr;
  const clang::Expr *Count = nullptr;          // the argument for the kernel's n (null: none)
  std::vector<const clang::Expr *> Pointers;   // the arguments for its pointer parameters
};

struct HostAccess {
  const clang::Expr *Call = nullptr;
  std::vector<const clang::Expr *> Pointers; // each restored if renumbered
  bool All = false;                          // every array restored (a library that may keep pointers)
};

struct FileDomain {
  std::string NoneBecause; // why no hook is emitted (empty: they are)
  const clang::Expr *NoneAt = nullptr;
  std::vector<DomainLaunch> Launches;
  std::vector<HostAccess> Accesses;
  std::vector<const clang::VarDecl *> Arrays; // the variables holding arrays a launch may renumber
  std::vector<const KernelNumbering *> GraphKernels;
  // Every kernel's roles (DomainInputs::Kernels, kept here: the launches point into it).
  std::map<const clang::FunctionDecl *, KernelNumbering> Kernels;
  bool formed() const { return NoneBecause.empty() && !Launches.empty(); }
};

struct DomainInputs {
  std::vector<std::pair<const clang::CUDAKernelCallExpr *, const clang::FunctionDecl *>> Launches;
  std::vector<std::pair<const clang::Expr *, const clang::FunctionDecl *>> Calls; // launches among them
  std::map<const clang::FunctionDecl *, KernelNumbering> Kernels;                 // by canonical declaration
  std::function<bool(const clang::FunctionDecl *)> InFiles; // a function whose body the tool rewrites
};

// Empty Launches (and no reason) where no indifferent kernel has a neighbour
// list: nothing to renumber by.
FileDomain analyzeFileDomain(DomainInputs In, clang::ASTContext &Ctx);

} // namespace irregfix
