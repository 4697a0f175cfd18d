// What the rewriter needs from the AST of the files it rewrites (the main file
// and the user files it includes, Frontend/RewritableFiles.h): their kernels,
// the launches and other calls of their host code (each with the function it is
// in), and, for calls a template's text cannot resolve, the calls its
// instantiations make at the same place.
#pragma once

#include "Analysis/HostWrites.h"
#include "Frontend/RewritableFiles.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace irregfix {

struct MainFile {
  std::vector<const clang::FunctionDecl *> Kernels;
  std::vector<std::pair<const clang::CUDAKernelCallExpr *, const clang::FunctionDecl *>> Launches;
  // Every host call and constructor call in the files' text (templates as
  // written, not their instantiations), launches included, with its function.
  std::vector<std::pair<const clang::Expr *, const clang::FunctionDecl *>> Calls;
  // Calls of template instantiations (generic lambdas included), by the
  // source range they share with the template's text.
  std::map<std::pair<unsigned, unsigned>, std::vector<const clang::Expr *>> Instantiated;
  // Every call of the instantiations with its (instantiated) function.
  std::vector<std::pair<const clang::Expr *, const clang::FunctionDecl *>> InstanceCalls;
};

MainFile collectMainFile(clang::ASTContext &Ctx, const RewritableFiles &Files);

// The instantiations of a call in a template's text (none for a call that is
// the same in all of them, or in no template).
std::vector<const clang::Expr *> instantiationsOf(const MainFile &File, const clang::Expr *Call);

// What a call of the files' host code does to device memory. A call that a
// template's text leaves unresolved does what its instantiations' calls do at
// the same place (nothing, when none is instantiated: it never runs).
HostEffect effectOfCall(const MainFile &File, const clang::Expr *Call, HostWriteAnalysis &Host);

// The functions of the files (lambdas included) from which a launch in UsesCache's
// functions can be reached through calls in the files, or through lambdas handed
// to library calls; in source order.
std::vector<const clang::FunctionDecl *> functionsReaching(const MainFile &File,
                                                           const std::set<const clang::FunctionDecl *> &UsesCache,
                                                           const HostWriteAnalysis &Host);

} // namespace irregfix
