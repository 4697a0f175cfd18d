#include "Frontend/FileRewrite.h"
#include "Decide/DecideFile.h"
#include "Frontend/CacheEdits.h"
#include "Frontend/Diagnostics.h"
#include "Frontend/FileEdits.h"
#include "Frontend/MainFile.h"
#include "Frontend/Remarks.h"
#include "Frontend/RuntimeInclude.h"
#include "Frontend/StrategyEdits.h"

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
        Msg(CI.getDiagnostics(), Opts.Remarks) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return; // the tool reports the parse errors and writes nothing
    limitTraversalToProgram(Ctx);
    Result.Files = Files.tree();
    const MainFile File = collectMainFile(Ctx, Files);
    const std::vector<KernelDecision> Decisions = decideFile(File.Kernels, Ctx, &DeviceOnly, {Opts.Hoist, Opts.Reassociate});

    VerdictRemarks Remarks(Msg, Ctx);
    RewrittenKernels Rewritten;
    for (size_t I = 0; I < Decisions.size(); ++I) {
      const KernelDecision &D = Decisions[I];
      Result.Kernels.push_back(File.Kernels[I]->getNameAsString());
      Remarks.say(D, Result.Sites, Result.Reads);
      if (D.rewritten())
        Rewritten.emplace(File.Kernels[I]->getCanonicalDecl(), &D);
    }
    Result.Parsed = true;
    if (Rewritten.empty())
      return;
    FileEdits Edits(Files, Result.Files, Msg);
    if (!emit(File, Rewritten, Ctx, Edits)) {
      Result.RewriteFailed = true;
      Edits.dropAll();
    }
  }

private:
  bool emit(const MainFile &File, const RewrittenKernels &Kernels, ASTContext &Ctx, FileEdits &Edits) {
    if (const NamedDecl *D = runtimeNameTaken(Ctx)) {
      Msg.error(D->getLocation(), "cannot rewrite this file: it declares '" + D->getNameAsString() +
                                      "' at global scope, the name of the irregfix runtime's namespace, "
                                      "which the rewritten code uses; rename it");
      return false;
    }
    RuntimeUses Uses;
    StrategyEdits Strategies(Ctx, Edits, Msg, Result);
    RewrittenLaunches Launches;
    return Strategies.kernels(Kernels, Uses) && Strategies.launches(File, Kernels, Launches) &&
           addCacheEdits(File, Launches, DeviceOnly, Ctx, Edits, Msg, Result) && Uses.addIncludes(Edits, Ctx);
  }

  CompilerInstance &CI;
  const RewriteOptions &Opts;
  FileResult &Result;
  const RewritableFiles &Files;
  const DeviceOnlyCode &DeviceOnly;
  Messages Msg;
};

} // namespace

std::unique_ptr<ASTConsumer> newFileRewrite(CompilerInstance &CI, const RewriteOptions &Opts, FileResult &Result,
                                            const RewritableFiles &Files, const DeviceOnlyCode &DeviceOnly) {
  return std::make_unique<FileRewrite>(CI, Opts, Result, Files, DeviceOnly);
}

} // namespace irregfix
