#include "Frontend/FileRewrite.h"
#include "Analysis/Parents.h"
#include "Decide/DecideFile.h"
#include "Frontend/CacheEdits.h"
#include "Frontend/Diagnostics.h"
#include "Frontend/FileEdits.h"
#include "Frontend/MainFile.h"
#include "Frontend/Remarks.h"
#include "Frontend/RuntimeInclude.h"
#include "Frontend/StrategyEdits.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

using namespace clang;

namespace irregfix {

namespace {

// The program's own declarations (not those of system headers: the CUDA
// wrappers, the C++ library): every kernel, callee and launch the tool reads is
// among them. Parent look-ups and AST walks then build their maps over these
// alone, not over the tens of thousands of header declarations.
void limitTraversalToProgram(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Decl *> Program;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      Program.push_back(D);
  Ctx.setTraversalScope(Program);
  forgetParents(Ctx); // parent look-ups cover the new scope
}

// A declaration at global scope named `irregfix` that is no namespace: the
// rewritten code names the runtime's namespace from there.
const NamedDecl *runtimeNameTaken(ASTContext &Ctx) {
  for (const NamedDecl *D : Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get("irregfix")))
    if (!isa<NamespaceDecl>(D))
      return D;
  return nullptr;
}

class FileRewrite : public ASTConsumer {
public:
  FileRewrite(CompilerInstance &CI, const RewriteOptions &Opts, FileResult &Result, const RewritableFiles &Files,
              const DeviceOnlyCode &DeviceOnly)
      : CI(CI), Opts(Opts), Result(Result), Files(Files), DeviceOnly(DeviceOnly),
        Msg(CI.getDiagnostics(), Opts.Remarks), ParseBegan(std::chrono::steady_clock::now()) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return; // the tool reports the parse errors and writes nothing
    limitTraversalToProgram(Ctx);
    Result.Files = Files.tree();
    const MainFile File = collectMainFile(Ctx, Files);
    const std::vector<KernelDecision> Decisions =
        decideFile(File.Kernels, Ctx, &DeviceOnly, {Opts.Hoist, Opts.Reassociate, kernelBudget()});

    // The domain is settled first: the reads it serves as written are said so.
    const SettledDomain Domain = settleDomain(File, Decisions, Files, Opts.Reassociate, Ctx);
    const std::map<const Expr *, std::string> Renumbered = renumberedReads(Domain.Domain, Decisions);
    VerdictRemarks Remarks(Msg, Ctx, &Renumbered);
    RewrittenKernels Rewritten;
    for (size_t I = 0; I < Decisions.size(); ++I) {
      const KernelDecision &D = Decisions[I];
      Result.Kernels.push_back(File.Kernels[I]->getNameAsString());
      Remarks.say(D, Result.Sites, Result.Reads);
      if (D.rewritten())
        Rewritten.emplace(File.Kernels[I]->getCanonicalDecl(), &D);
    }
    Result.Parsed = true;
    // A file none of whose kernels is rewritten may still keep a renumbered
    // domain (kernels that are indifferent to the numbering as they are).
    FileEdits Edits(Files, Result.Files, Msg);
    if (!emit(File, Domain, Rewritten, Ctx, Edits)) {
      Result.RewriteFailed = true;
      Edits.dropAll();
    }
  }

private:
  // Each kernel's analysis: a multiple of the time the file took to parse
  // (the consumer is made as the parse begins), with a floor.
  KernelBudget kernelBudget() const {
    KernelBudget B;
    if (Opts.BudgetFactor < 0)
      return B;
    const double Parse = std::chrono::duration<double>(std::chrono::steady_clock::now() - ParseBegan).count();
    B.Seconds = std::max(Opts.BudgetFloorSeconds, Opts.BudgetFactor * Parse);
    char Text[128];
    snprintf(Text, sizeof Text, "%.1f s: %gx the file's parse of %.1f s, at least %g s", B.Seconds,
             Opts.BudgetFactor, Parse, Opts.BudgetFloorSeconds);
    B.Described = Text;
    return B;
  }

  bool emit(const MainFile &File, const SettledDomain &Domain, const RewrittenKernels &Kernels, ASTContext &Ctx,
            FileEdits &Edits) {
    if (const NamedDecl *D = runtimeNameTaken(Ctx)) {
      if (Kernels.empty())
        return true; // nothing it must rewrite: the file stays as it is
      Msg.error(D->getLocation(), "cannot rewrite this file: it declares '" + D->getNameAsString() +
                                      "' at global scope, the name of the irregfix runtime's namespace, "
                                      "which the rewritten code uses; rename it");
      return false;
    }
    RuntimeUses Uses;
    StrategyEdits Strategies(Ctx, Edits, Msg, Result);
    RewrittenLaunches Launches;
    return Strategies.kernels(Kernels, Uses) && Strategies.launches(File, Kernels, Launches) &&
           addCacheEdits(File, Domain, Launches, DeviceOnly, Kernels.empty(), Ctx, Edits, Msg, Result) &&
           Uses.addIncludes(Edits, Ctx);
  }

  CompilerInstance &CI;
  const RewriteOptions &Opts;
  FileResult &Result;
  const RewritableFiles &Files;
  const DeviceOnlyCode &DeviceOnly;
  Messages Msg;
  std::chrono::steady_clock::time_point ParseBegan;
};

} // namespace

std::unique_ptr<ASTConsumer> newFileRewrite(CompilerInstance &CI, const RewriteOptions &Opts, FileResult &Result,
                                            const RewritableFiles &Files, const DeviceOnlyCode &DeviceOnly) {
  return std::make_unique<FileRewrite>(CI, Opts, Result, Files, DeviceOnly);
}

} // namespace irregfix
