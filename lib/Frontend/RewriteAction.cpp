#include "Frontend/RewriteAction.h"
#include "Analysis/Hoistability.h"
#include "Analysis/SiteFinder.h"
#include "Frontend/DepFile.h"
#include "Frontend/Diagnostics.h"
#include "Transform/Hoisted/KernelRewriter.h"
#include "Transform/Hoisted/LaunchRewriter.h"
#include "Transform/InKernel/KernelRewriter.h"
#include "Transform/InKernel/LaunchRewriter.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/Invalidation.h"
#include "Transform/SourceText.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include <map>

using namespace clang;

namespace irregfix {

namespace {

constexpr const char *RuntimeInclude = "#include <irregfix/irregfix.cuh>\n";

bool isHostCode(const FunctionDecl *F) {
  return !F || !(F->hasAttr<CUDAGlobalAttr>() || (F->hasAttr<CUDADeviceAttr>() && !F->hasAttr<CUDAHostAttr>()));
}

// Kernel definitions, launches and host writes in the main file.
class MainFileCollector : public RecursiveASTVisitor<MainFileCollector> {
public:
  explicit MainFileCollector(const SourceManager &SM) : SM(SM) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool TraverseFunctionDecl(FunctionDecl *F) {
    const FunctionDecl *Saved = Current;
    Current = F;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(F);
    Current = Saved;
    return R;
  }

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (F->hasAttr<CUDAGlobalAttr>() && F->doesThisDeclarationHaveABody() && inMainFile(F->getLocation()))
      Kernels.push_back(F);
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) {
    if (inMainFile(Launch->getBeginLoc()) && isHostCode(Current))
      Launches.push_back(Launch);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (isa<CUDAKernelCallExpr>(Call) || !inMainFile(Call->getBeginLoc()) || !isHostCode(Current))
      return true;
    if (auto Targets = runtimeCallTargets(Call); !Targets.empty()) {
      const FunctionDecl *F = Call->getDirectCallee();
      Writes.push_back({Call, std::move(Targets), F && F->getName().starts_with("cudaFree")});
    }
    return true;
  }

  std::vector<const FunctionDecl *> Kernels;
  std::vector<const CUDAKernelCallExpr *> Launches;
  std::vector<HostWrite> Writes;

private:
  bool inMainFile(SourceLocation L) const { return SM.isInMainFile(SM.getExpansionLoc(L)); }
  const SourceManager &SM;
  const FunctionDecl *Current = nullptr;
};

// Records where the main file's #include lines end, to place the runtime include.
class IncludeTracker : public PPCallbacks {
public:
  IncludeTracker(const SourceManager &SM, std::vector<unsigned> &Ends) : SM(SM), Ends(Ends) {}
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef, bool,
                          CharSourceRange FilenameRange, OptionalFileEntryRef, StringRef,
                          StringRef, const Module *, bool, SrcMgr::CharacteristicKind) override {
    // Written in the main file: isInMainFile() also holds for the predefines
    // buffer, whose `#include` of Clang's CUDA wrapper is at an unrelated offset.
    if (SM.isWrittenInMainFile(HashLoc))
      Ends.push_back(SM.getFileOffset(FilenameRange.getEnd()));
  }

private:
  const SourceManager &SM;
  std::vector<unsigned> &Ends;
};

class RewriteConsumer : public ASTConsumer {
public:
  RewriteConsumer(CompilerInstance &CI, const RewriteOptions &Opts, FileResult &Result,
                  const std::vector<unsigned> &IncludeEnds)
      : CI(CI), Opts(Opts), Result(Result), IncludeEnds(IncludeEnds),
        Msg(CI.getDiagnostics(), Opts.Remarks) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return; // the tool reports the parse errors and writes nothing
    const SourceManager &SM = Ctx.getSourceManager();
    MainFileCollector Collector(SM);
    Collector.TraverseDecl(Ctx.getTranslationUnitDecl());

    std::map<const FunctionDecl *, KernelInfo> Transformed;
    for (const FunctionDecl *K : Collector.Kernels) {
      KernelInfo Info = analyzeKernel(K, Ctx);
      Result.Kernels.push_back(K->getNameAsString());
      if (Opts.hoists(K->getNameAsString()) && (Info.hasTransformableSite() || !Opts.HoistAll))
        hoist(Info, Ctx);
      report(Info, Ctx);
      if (Info.hasTransformableSite())
        Transformed.emplace(K->getCanonicalDecl(), std::move(Info));
    }
    Result.Parsed = true;
    if (Transformed.empty())
      return;

    unsigned FirstKernelOffset = ~0u;
    for (auto &[Canon, Info] : Transformed) {
      if (!emitKernel(Info, Ctx))
        return fail();
      FirstKernelOffset =
          std::min(FirstKernelOffset, SM.getFileOffset(SM.getExpansionLoc(inkernel::declarationRange(Info).getBegin())));
    }

    std::vector<HostWrite> Writes = Collector.Writes;
    WriteSets KernelWrites; // a kernel launched many times is analysed once
    for (const CUDAKernelCallExpr *Launch : Collector.Launches) {
      if (auto Targets = launchTargets(Launch, KernelWrites); !Targets.empty())
        Writes.push_back({Launch, std::move(Targets), false});
      const FunctionDecl *Callee = Launch->getDirectCallee();
      if (Callee && Callee->getPrimaryTemplate()) // a launch of a template's instantiation
        Callee = Callee->getPrimaryTemplate()->getTemplatedDecl();
      auto It = Callee ? Transformed.find(Callee->getCanonicalDecl()) : Transformed.end();
      if (It == Transformed.end())
        continue;
      if (!emitLaunch(Launch, It->second, Ctx))
        return fail();
    }

    InvalidationEdits Inv = invalidations(Writes, Ctx);
    for (const tooling::Replacement &R : Inv.Edits)
      if (!add(R))
        return fail();
    Result.Invalidations = Inv.Edits.size();
    for (auto &[E, Why] : Inv.Skipped)
      if (E)
        Msg.warning(E->getBeginLoc(), "cannot insert cache invalidation for this write (" + Why +
                                          "); call irregfix_invalidate() on the pointer after it");

    // The runtime include goes after the last #include before the first kernel.
    unsigned At = 0;
    for (unsigned End : IncludeEnds)
      if (End < FirstKernelOffset)
        At = std::max(At, End);
    StringRef Buf = SM.getBufferData(SM.getMainFileID());
    std::string Text = RuntimeInclude;
    if (At > 0) {
      size_t NL = Buf.find('\n', At);
      At = NL == StringRef::npos ? Buf.size() : NL + 1;
      if (NL == StringRef::npos)
        Text = "\n" + Text;
    }
    if (!add(tooling::Replacement(SM.getFileEntryRefForID(SM.getMainFileID())->getName(), At, 0, Text)))
      return fail();
  }

private:
  bool add(const tooling::Replacement &R) {
    if (llvm::Error E = Result.Edits.add(R)) {
      Msg.error(SourceLocation(), "internal error while combining edits: " + llvm::toString(std::move(E)));
      return false;
    }
    return true;
  }

  void fail() {
    Result.RewriteFailed = true;
    Result.Edits = tooling::Replacements();
  }

  bool emitKernel(const KernelInfo &Info, ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    const LangOptions &LO = Ctx.getLangOpts();
    llvm::Expected<std::string> Kernel = inkernel::rewriteKernel(Info, Ctx);
    if (!Kernel) {
      Msg.error(Info.Kernel->getLocation(), "cannot rewrite kernel '" + Info.Kernel->getNameAsString() +
                                                "': " + llvm::toString(Kernel.takeError()));
      return false;
    }
    CharSourceRange R = fileRange(inkernel::declarationRange(Info), SM, LO);
    std::string Text = "\n\n// irregfix: '" + Info.Kernel->getNameAsString() +
                       "' reading its indirect arrays through coalesced copies; the original "
                       "above is the fallback.\n" +
                       *Kernel + "\n\n";
    if (Info.Hoist.Hoistable) {
      llvm::Expected<std::string> Hoisted = hoisted::rewriteKernel(Info, Ctx);
      if (!Hoisted) {
        Msg.error(Info.Kernel->getLocation(), "cannot hoist the loop of kernel '" + Info.Kernel->getNameAsString() +
                                                  "': " + llvm::toString(Hoisted.takeError()));
        return false;
      }
      Text += "// irregfix: '" + Info.Kernel->getNameAsString() +
              "' with its loop run from the host, a slice of iterations a launch (--hoist); the kernel "
              "above is its fallback.\n" +
              *Hoisted + "\n\n" + hoisted::launcherDefinition(Info, Ctx) + "\n";
      ++Result.LoopsHoisted;
    } else {
      Text += inkernel::launcherDefinition(Info, Ctx) + "\n";
    }
    ++Result.KernelsRewritten;
    return add(tooling::Replacement(SM, R.getEnd(), 0, Text));
  }

  bool emitLaunch(const CUDAKernelCallExpr *Launch, const KernelInfo &Info, ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::Expected<tooling::Replacement> R = inkernel::rewriteLaunch(Launch, Info, Ctx);
    if (!R) {
      Msg.warning(Launch->getBeginLoc(), "launch of '" + Info.Kernel->getNameAsString() +
                                             "' left unchanged, it runs the original kernel: " +
                                             llvm::toString(R.takeError()));
      return true;
    }
    // A launch before the kernel's definition needs the launcher declared first.
    const FunctionDecl *First = Info.source()->getFirstDecl();
    unsigned DefOffset = SM.getFileOffset(SM.getExpansionLoc(inkernel::declarationRange(Info).getBegin()));
    if (R->getOffset() < DefOffset && Info.Template) {
      Msg.warning(Launch->getBeginLoc(), "launch of kernel template '" + Info.Kernel->getNameAsString() +
                                             "' before its definition left unchanged; it runs the original kernel");
      return true;
    }
    if (R->getOffset() < DefOffset && First != Info.Kernel && Declared.insert(Info.Kernel).second) {
      CharSourceRange D = fileRange(First->getSourceRange(), SM, Ctx.getLangOpts());
      SourceLocation Semi = Lexer::findLocationAfterToken(SM.getExpansionRange(First->getEndLoc()).getEnd(),
                                                          tok::semi, SM, Ctx.getLangOpts(), false);
      SourceLocation At = Semi.isValid() ? Semi : D.getEnd();
      if (!add(tooling::Replacement(SM, At, 0, "\n" + inkernel::launcherDeclaration(Info, Ctx))))
        return false;
    }
    ++Result.LaunchesRewritten;
    return add(*R);
  }

  // --hoist asked for this kernel. A hoisted kernel keeps its threads in order
  // (its live buffers and early exits use the thread index as written).
  void hoist(KernelInfo &Info, ASTContext &Ctx) {
    Info.Hoist.Requested = true;
    analyzeHoistability(Info, Ctx);
    if (Info.Hoist.Hoistable && Info.Perm.Permutable) {
      Info.Perm.Permutable = false;
      Info.Perm.NotBecause = "its loop is hoisted";
    }
    if (Info.Hoist.Hoistable && Info.Share.Shareable) {
      Info.Share.Shareable = false;
      Info.Share.NotBecause = "its loop is hoisted";
    }
  }

  void reportHoisting(const KernelInfo &Info) {
    std::string Kernel = "'" + Info.Kernel->getNameAsString() + "'";
    if (!Info.Hoist.Hoistable) {
      SourceLocation At = Info.Hoist.SiteIndex < Info.Sites.size() ? Info.Sites[Info.Hoist.SiteIndex].Loc
                                                                   : Info.Kernel->getLocation();
      Msg.remark(At, "loop of " + Kernel + " stays in the kernel (not hoisted): " + Info.Hoist.NotBecause);
      return;
    }
    std::string Live;
    for (const VarDecl *V : Info.Hoist.Live)
      Live += (Live.empty() ? "'" : ", '") + V->getNameAsString() + "'";
    Msg.remark(Info.Sites[Info.Hoist.SiteIndex].Loc,
               "loop of " + Kernel + " hoisted: run from the host, a slice of iterations a launch; " +
                   (Live.empty() ? std::string("nothing") : Live) + " carried between launches");
  }

  void report(const KernelInfo &Info, ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Kernel = "'" + Info.Kernel->getNameAsString() + "'";
    for (const Site &S : Info.Sites) {
      SiteReport R;
      PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(S.Loc));
      R.File = P.getFilename();
      R.Line = P.getLine();
      R.Column = P.getColumn();
      R.Kernel = Info.Kernel->getNameAsString();
      R.Pattern = patternName(S.Pattern);
      R.Offsets = S.Offsets ? S.Offsets.spelling() : "-";
      for (const SiteArray &A : S.Arrays)
        if (A.RefusedBecause.empty())
          R.Arrays.push_back(A.Array.spelling());
      R.Transformed = S.transformable();
      if (R.Transformed) {
        R.Threads = Info.Perm.Permutable ? "permutable" : "in-order";
        R.Launch = Info.Chunks.Chunkable ? "chunked" : "whole";
      }
      R.Reason = S.RefusedBecause;
      for (auto &[W, Rd] : S.AliasChecks)
        R.AliasChecks.push_back(W.spelling() + "/" + Rd.spelling());

      std::string What = std::string(patternName(S.Pattern)) + " site in " + Kernel;
      if (S.transformable()) {
        std::string Arrays;
        for (const std::string &A : R.Arrays)
          Arrays += (Arrays.empty() ? "'" : ", '") + A + "'";
        Msg.remark(S.Loc, What + " transformed: " + Arrays + " read through a coalesced copy indexed by '" +
                              R.Offsets + "'");
        for (const SiteArray &A : S.Arrays)
          if (!A.RefusedBecause.empty())
            Msg.note(A.Reads.empty() ? S.Loc : A.Reads.front()->getBeginLoc(),
                     A.Array.quoted() + " is left as is: " + A.RefusedBecause);
        // One note per written pointer, naming every source it may alias.
        std::vector<std::pair<ArrayRef, std::string>> ByWritten;
        for (auto &[W, Rd] : S.AliasChecks) {
          auto It = std::find_if(ByWritten.begin(), ByWritten.end(), [&](auto &P) { return P.first == W; });
          if (It == ByWritten.end())
            It = ByWritten.insert(ByWritten.end(), {W, ""});
          It->second += (It->second.empty() ? "" : ", ") + Rd.quoted();
        }
        for (auto &[W, Sources] : ByWritten)
          Msg.note(W.param()->getLocation(), W.quoted() + " is written and may alias " + Sources +
                                                 ": checked at each launch");
      } else {
        if (R.Reason.empty() && !S.Arrays.empty())
          R.Reason = S.Arrays.front().RefusedBecause;
        Msg.remark(S.Loc, What + " not transformed: " + R.Reason);
      }
      Result.Sites.push_back(std::move(R));
    }
    if (Info.hasTransformableSite()) {
      if (Info.Perm.Permutable)
        Msg.remark(Info.Kernel->getLocation(),
                   "threads of " + Kernel + " may be permuted (SELL-32-sigma regroups rows by length)");
      else
        Msg.remark(Info.Kernel->getLocation(), "threads of " + Kernel +
                                                   " keep their order (no SELL-32-sigma): " + Info.Perm.NotBecause);
      // Sharing concerns neighbour-list sites only: say it where there is one.
      bool Neighbors = false;
      for (const Site &S : Info.Sites)
        Neighbors |= S.transformable() && S.Pattern == SitePattern::Neighbors;
      if (Info.Share.Shareable)
        Msg.remark(Info.Sites[Info.Share.SiteIndex].Loc,
                   "blocks of " + Kernel + " may stage the elements their threads share in shared memory "
                                           "(sharing layout)");
      else if (Neighbors)
        Msg.remark(Info.Kernel->getLocation(),
                   "no sharing layout for " + Kernel + ": " + Info.Share.NotBecause);
      // Most kernels are chunkable; say so only when one is not.
      if (!Info.Chunks.Chunkable)
        Msg.remark(Info.Kernel->getLocation(), "launches of " + Kernel +
                                                   " run whole (no remap overlapping the kernel): " +
                                                   Info.Chunks.NotBecause);
    }
    if (Info.Hoist.Requested)
      reportHoisting(Info);
  }

  CompilerInstance &CI;
  const RewriteOptions &Opts;
  FileResult &Result;
  const std::vector<unsigned> &IncludeEnds;
  Messages Msg;
  std::set<const FunctionDecl *> Declared;
};

class RewriteAction : public ASTFrontendAction {
public:
  RewriteAction(const RewriteOptions &Opts, std::vector<FileResult> *Results)
      : Opts(Opts), Results(Results) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef File) override {
    Results->emplace_back();
    FileResult &R = Results->back();
    R.Path = File.str();
    const SourceManager &SM = CI.getSourceManager();
    R.Original = SM.getBufferData(SM.getMainFileID()).str();
    CI.getPreprocessor().addPPCallbacks(std::make_unique<IncludeTracker>(SM, IncludeEnds));
    CI.getPreprocessor().addPPCallbacks(newDependencyRecorder(SM, R.Dependencies));
    return std::make_unique<RewriteConsumer>(CI, Opts, R, IncludeEnds);
  }

private:
  const RewriteOptions &Opts;
  std::vector<FileResult> *Results;
  std::vector<unsigned> IncludeEnds;
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(const RewriteOptions &Opts, std::vector<FileResult> *Results) : Opts(Opts), Results(Results) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<RewriteAction>(Opts, Results);
  }

private:
  RewriteOptions Opts;
  std::vector<FileResult> *Results;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory>
newRewriteActionFactory(const RewriteOptions &Options, std::vector<FileResult> *Results) {
  return std::make_unique<Factory>(Options, Results);
}

} // namespace irregfix
