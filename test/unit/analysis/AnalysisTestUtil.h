// Runs the site analysis on in-memory CUDA code parsed against the stub header.
#pragma once

#include "Analysis/KernelAnalysis.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"

#include <functional>
#include <string>
#include <vector>

namespace irregfix::test {

inline std::vector<std::string> cudaArgs() {
  return {"-xcuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
          "--cuda-path=" IRREGFIX_TEST_INPUTS "/CUDA", "-isystem", IRREGFIX_TEST_INPUTS "/CUDA/include",
          "-resource-dir", IRREGFIX_CLANG_RESOURCE_DIR, "-Wno-unknown-cuda-version"};
}

// Parses Code and calls Fn(ctx) with its translation unit.
inline bool onTranslationUnit(const std::string &Code, std::function<void(clang::ASTContext &)> Fn) {
  struct Consumer : clang::ASTConsumer {
    std::function<void(clang::ASTContext &)> Fn;
    void HandleTranslationUnit(clang::ASTContext &Ctx) override { Fn(Ctx); }
  };
  struct Action : clang::ASTFrontendAction {
    std::function<void(clang::ASTContext &)> Fn;
    std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
      auto C = std::make_unique<Consumer>();
      C->Fn = Fn;
      return C;
    }
  };
  auto A = std::make_unique<Action>();
  A->Fn = std::move(Fn);
  return clang::tooling::runToolOnCodeWithArgs(std::move(A), "#include <cuda_runtime.h>\n" + Code, cudaArgs(),
                                               "input.cu");
}

// Calls Fn(kernel, ctx) for every __global__ function defined in Code.
inline bool forEachKernel(const std::string &Code,
                          std::function<void(const clang::FunctionDecl *, clang::ASTContext &)> Fn) {
  struct Visitor : clang::RecursiveASTVisitor<Visitor> {
    std::function<void(const clang::FunctionDecl *)> Each;
    bool VisitFunctionDecl(clang::FunctionDecl *F) {
      if (F->hasAttr<clang::CUDAGlobalAttr>() && F->doesThisDeclarationHaveABody())
        Each(F);
      return true;
    }
  };
  return onTranslationUnit(Code, [&](clang::ASTContext &Ctx) {
    Visitor V;
    V.Each = [&](const clang::FunctionDecl *F) { Fn(F, Ctx); };
    V.TraverseDecl(Ctx.getTranslationUnitDecl());
  });
}

// A summary of one site that tests can compare.
struct SiteSummary {
  std::string Pattern, Offsets, Arrays, Refused, Bound;
  std::string Extents; // a linear index's bounds, "nx*ny"
  bool Transformable = false, RebindsLoopVar = false;
  bool LaunchThreads = false; // no guard: the launch's threads
  size_t AliasChecks = 0;
};

inline std::vector<SiteSummary> sitesOf(const std::string &Code) {
  std::vector<SiteSummary> Out;
  bool Ok = forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &Ctx) {
    KernelInfo Info = analyzeKernel(K, Ctx, /*DeviceOnly=*/nullptr);
    for (const Site &S : Info.Sites) {
      SiteSummary Sum;
      Sum.Pattern = pattern_name(S.Pattern);
      Sum.Offsets = S.Offsets ? S.Offsets.spelling() : "";
      for (const SiteArray *A : S.remappedArrays())
        Sum.Arrays += (Sum.Arrays.empty() ? "" : ",") + A->Array.spelling();
      Sum.Refused = S.RefusedBecause;
      if (Sum.Refused.empty())
        for (const SiteArray &A : S.Arrays)
          if (!A.RefusedBecause.empty())
            Sum.Refused = A.RefusedBecause;
      if (S.ActiveThreads)
        if (const auto *DR = llvm::dyn_cast<clang::DeclRefExpr>(S.ActiveThreads->IgnoreParenImpCasts()))
          Sum.Bound = DR->getDecl()->getNameAsString();
      for (const clang::Expr *E : S.ActiveExtents)
        if (const auto *DR = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts()))
          Sum.Extents += (Sum.Extents.empty() ? "" : "*") + DR->getDecl()->getNameAsString();
      Sum.LaunchThreads = S.LaunchThreads;
      Sum.Transformable = S.transformable();
      Sum.RebindsLoopVar = S.LoopVarUsedElsewhere;
      Sum.AliasChecks = S.AliasChecks.size();
      Out.push_back(Sum);
    }
  });
  if (!Ok)
    Out.push_back({"parse-error", "", "", "", "", "", false, false, false, 0});
  return Out;
}

} // namespace irregfix::test
