// Emit, the strategies' part: each rewritten kernel's generated kernels and
// launcher (Transform/Strategy.h) inserted after the original, which stays as
// the fallback, and each launch of it turned into a call of the launcher.
#pragma once

#include "Decide/KernelDecision.h"
#include "Frontend/FileEdits.h"
#include "Frontend/MainFile.h"
#include "Frontend/FileResult.h"
#include "Frontend/RuntimeInclude.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <set>
#include <vector>

namespace irregfix {

// The rewritten kernels, by canonical declaration (a template's pattern).
using RewrittenKernels = std::map<const clang::FunctionDecl *, const KernelDecision *>;

// The launches that now call launchers, and the functions that hold them.
struct RewrittenLaunches {
  std::vector<clang::SourceRange> Ranges;
  std::set<const clang::FunctionDecl *> In;
};

class StrategyEdits {
public:
  StrategyEdits(clang::ASTContext &Ctx, FileEdits &Edits, Messages &Msg, FileResult &Result)
      : Ctx(Ctx), Edits(Edits), Msg(Msg), Result(Result) {}

  // Every kernel's text, each noted in Uses; false when one cannot be
  // written (an error says why) or its edit fails.
  bool kernels(const RewrittenKernels &Kernels, RuntimeUses &Uses);
  // Every launch of those kernels in File's host code; a launch the tool
  // cannot rewrite keeps the original kernel, with a warning.
  bool launches(const MainFile &File, const RewrittenKernels &Kernels, RewrittenLaunches &Out);

private:
  bool kernel(const KernelDecision &D);
  bool launch(const clang::CUDAKernelCallExpr *Launch, const KernelInfo &Info, bool *Done);

  clang::ASTContext &Ctx;
  FileEdits &Edits;
  Messages &Msg;
  FileResult &Result;
  std::set<const clang::FunctionDecl *> Declared; // launchers declared before a launch that precedes their kernel
};

} // namespace irregfix
