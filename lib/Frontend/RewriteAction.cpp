#include "Frontend/RewriteAction.h"
#include "Analysis/DeviceOnlyCode.h"
#include "Decide/DecideFile.h"
#include "Analysis/Hoistability.h"
#include "Analysis/HostWrites.h"
#include "Analysis/IndexForm.h"
#include "Analysis/OrderedLaunches.h"
#include "Analysis/ScatterSites.h"
#include "Analysis/ThreadIndex.h"
#include "Frontend/DepFile.h"
#include "Frontend/Diagnostics.h"
#include "Frontend/MainFile.h"
#include "Frontend/RewritableFiles.h"
#include "Frontend/ReportRows.h"
#include "Transform/Hoisted/KernelRewriter.h"
#include "Transform/Hoisted/LaunchRewriter.h"
#include "Transform/InKernel/KernelRewriter.h"
#include "Transform/InKernel/LaunchRewriter.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/Scatter/KernelRewriter.h"
#include "Transform/Scatter/LaunchRewriter.h"
#include "Transform/Invalidation.h"
#include "Transform/SourceText.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include <functional>
#include <map>

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

// The kernel a launch calls (the template, for a launch of an instantiation).
const FunctionDecl *launchedKernel(const CUDAKernelCallExpr *Launch) {
  const FunctionDecl *Callee = Launch->getDirectCallee();
  if (Callee && Callee->getPrimaryTemplate())
    Callee = Callee->getPrimaryTemplate()->getTemplatedDecl();
  return Callee;
}

constexpr const char *RuntimeInclude = "#include <irregfix/irregfix.cuh>\n";

class RewriteConsumer : public ASTConsumer {
public:
  RewriteConsumer(CompilerInstance &CI, const RewriteOptions &Opts, FileResult &Result,
                  const RewritableFiles &Files, const DeviceOnlyCode &DeviceOnly)
      : CI(CI), Opts(Opts), Result(Result), Files(Files), DeviceOnly(DeviceOnly),
        Msg(CI.getDiagnostics(), Opts.Remarks) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return; // the tool reports the parse errors and writes nothing
    const SourceManager &SM = Ctx.getSourceManager();
    limitTraversalToProgram(Ctx);
    Result.Files = Files.tree();
    MainFile Collector = collectMainFile(Ctx, Files);

    const std::vector<KernelDecision> Decisions = decideFile(Collector.Kernels, Ctx, &DeviceOnly, Opts.Hoist);
    // Each rewritten kernel, by its canonical declaration (a template's pattern).
    std::map<const FunctionDecl *, const KernelDecision *> Transformed;
    for (size_t I = 0; I < Decisions.size(); ++I) {
      const KernelDecision &D = Decisions[I];
      const FunctionDecl *K = Collector.Kernels[I];
      Result.Kernels.push_back(K->getNameAsString());
      report(D, Ctx);
      reportScatters(D.Info, D.Scatters, Ctx);
      reportReads(D.Info, Ctx);
      if (D.rewritten())
        Transformed.emplace(K->getCanonicalDecl(), &D);
    }
    Result.Parsed = true;
    if (Transformed.empty())
      return;
    // The rewritten code names the runtime's namespace from global scope.
    for (const NamedDecl *D : Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get("irregfix")))
      if (!isa<NamespaceDecl>(D)) {
        Msg.error(D->getLocation(), "cannot rewrite this file: it declares '" + D->getNameAsString() +
                                        "' at global scope, the name of the irregfix runtime's namespace, "
                                        "which the rewritten code uses; rename it");
        return fail();
      }

    std::map<std::string, unsigned> FirstUse; // per file, where the first thing that needs the runtime is
    auto Use = [&](const std::string &Path, unsigned Offset) {
      auto [It, New] = FirstUse.try_emplace(Path, Offset);
      It->second = std::min(It->second, Offset);
    };
    for (auto &[Canon, D] : Transformed) {
      if (!emitKernel(*D, Ctx))
        return fail();
      auto [File, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(inkernel::declarationRange(D->Info).getBegin()));
      Use(Files.pathOf(File), Offset);
    }

    // Launches of transformed kernels become launcher calls; the functions
    // holding them use the cache.
    std::vector<SourceRange> Rewritten;
    std::set<const FunctionDecl *> UsesCache;
    for (auto [Launch, Fn] : Collector.Launches) {
      const FunctionDecl *Callee = launchedKernel(Launch);
      if (!Callee && Launch->isInstantiationDependent()) {
        // A launch in a host template's text (`k<step><<<g, b>>>(...)`): its
        // instantiations say which kernel it launches; rewritten when all agree.
        std::vector<const Expr *> Instances = instantiationsOf(Collector, Launch);
        for (const Expr *I : Instances) {
          const auto *L = dyn_cast<CUDAKernelCallExpr>(I);
          const FunctionDecl *K = L ? launchedKernel(L) : nullptr;
          if (!K || (Callee && K->getCanonicalDecl() != Callee->getCanonicalDecl())) {
            Callee = nullptr;
            break;
          }
          Callee = K;
        }
      }
      auto It = Callee ? Transformed.find(Callee->getCanonicalDecl()) : Transformed.end();
      if (It == Transformed.end())
        continue;
      bool Done = false;
      if (!emitLaunch(Launch, It->second->Info, Ctx, &Done))
        return fail();
      if (Done) {
        Rewritten.push_back(Launch->getSourceRange());
        UsesCache.insert(Fn);
      }
    }

    HostWriteAnalysis Host(Ctx, [this](SourceLocation L) { return Files.contains(L); }, &DeviceOnly);
    std::vector<HostWrite> Writes;
    for (auto [Call, Fn] : Collector.Calls) {
      HostEffect E = effectOfCall(Collector, Call, Host);
      if (!E.empty())
        Writes.push_back({Call, std::move(E)});
    }
    // Every function that reaches such a launch drops the copies when it is
    // entered from code the tool cannot see. Without a main() here that is how
    // the file is used: say so.
    std::vector<const Stmt *> Guarded;
    std::vector<const FunctionDecl *> Reaching = functionsReaching(Collector, UsesCache, Host);
    const bool HasMain = llvm::any_of(Reaching, [](const FunctionDecl *F) { return F->isMain(); });
    for (const FunctionDecl *F : Reaching) {
      // (Clang marks unannotated lambdas __host__ __device__ implicitly: they run on the host here.)
      const auto *Device = F->getAttr<CUDADeviceAttr>();
      if (!F->getBody() || (Device && !Device->isImplicit()))
        continue;
      Guarded.push_back(F->getBody());
      if (!HasMain && F->isExternallyVisible() && !isa<CXXMethodDecl>(F))
        Msg.remark(F->getLocation(), "cached copies are dropped whenever '" + F->getNameAsString() +
                                         "' is entered from another file: code there may have written their "
                                         "sources");
    }

    InvalidationEdits Inv = invalidations(Writes, Guarded, Rewritten, Ctx);
    for (const tooling::Replacement &R : Inv.Edits)
      if (!add(R))
        return fail();
    Result.Invalidations = Inv.Points - Inv.Skipped.size();
    Result.EntryGuards = Inv.Guards;
    for (auto &[E, Why] : Inv.Drops)
      Msg.remark(E->getBeginLoc(), "cached copies are dropped here: " + Why);
    for (auto &[E, Why] : Inv.Skipped)
      if (E)
        Msg.warning(E->getBeginLoc(), "cannot insert cache invalidation for this write (" + Why +
                                          "); call irregfix_invalidate() on the pointer after it");

    // The runtime include, in the main file and every file the rewrite
    // changes, goes before the first thing there that uses it, and before the
    // #include of the first file that changes (or includes one that does).
    IncludeTree &Tree = Result.Files;
    const std::vector<std::string> Edited = Tree.edited(), Inlined = Tree.inlined();
    for (const std::string &Path : Edited)
      for (const tooling::Replacement &R : Tree.Files.at(Path).Edits)
        Use(Path, R.getOffset());
    for (const FileEntered &E : Tree.Entries)
      if (E.Path == Tree.Main || llvm::is_contained(Edited, E.Path))
        for (const Inclusion &I : E.Includes)
          if (I.Entry >= 0 && llvm::is_contained(Inlined, I.Target))
            Use(E.Path, I.Begin);
    if (!addRuntimeIncludes(FirstUse, Ctx))
      return fail();
  }

private:
  // In each file, after the last #include, #pragma once or include-guard
  // #define before FirstUse that is at file scope (not inside a struct or a
  // namespace, as some programs have an #include), else at its top.
  bool addRuntimeIncludes(const std::map<std::string, unsigned> &FirstUse, ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Nested; // [begin, end) of declarations
    std::function<void(const DeclContext *)> Collect = [&](const DeclContext *DC) {
      for (const Decl *D : DC->decls()) {
        CharSourceRange R = fileRange(D->getSourceRange(), SM, Ctx.getLangOpts());
        if (R.isValid()) {
          auto [File, Begin] = SM.getDecomposedLoc(R.getBegin());
          Nested[Files.pathOf(File)].push_back({Begin, SM.getFileOffset(R.getEnd())});
        }
        if (isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D)) // it may hold an #include of another file
          Collect(cast<DeclContext>(D));
      }
    };
    Collect(Ctx.getTranslationUnitDecl());
    for (auto &[Path, First] : FirstUse) {
      if (Path.empty())
        continue;
      const std::vector<std::pair<unsigned, unsigned>> &Decls = Nested[Path];
      unsigned At = 0;
      for (unsigned End : Files.directiveEnds(Path))
        if (End <= First && llvm::none_of(Decls, [&](auto &N) { return N.first < End && End < N.second; }))
          At = std::max(At, End);
      const std::string &Text = Result.Files.Files.at(Path).Original;
      const bool NewLine = At > 0 && Text[At - 1] != '\n'; // after a last line without one
      if (!add(tooling::Replacement(Path, At, 0, (NewLine ? "\n" : "") + std::string(RuntimeInclude))))
        return false;
    }
    return true;
  }

  // Every edit goes to its file's Replacements, under the one name the tool
  // gives the file. The same edit twice (a file entered twice) is one edit.
  bool add(const tooling::Replacement &R) {
    const std::string Path = Files.pathOf(R.getFilePath());
    auto It = Result.Files.Files.find(Path);
    if (Path.empty() || It == Result.Files.Files.end()) {
      Msg.error(SourceLocation(), "internal error: an edit to '" + R.getFilePath().str() +
                                      "', which is not a file the tool rewrites");
      return false;
    }
    tooling::Replacement Named(Path, R.getOffset(), R.getLength(), R.getReplacementText());
    if (llvm::is_contained(It->second.Edits, Named))
      return true;
    if (llvm::Error E = It->second.Edits.add(Named)) {
      Msg.error(SourceLocation(), "internal error while combining edits: " + llvm::toString(std::move(E)));
      return false;
    }
    return true;
  }

  void fail() {
    Result.RewriteFailed = true;
    for (auto &[Path, File] : Result.Files.Files)
      File.Edits = tooling::Replacements();
  }

  bool emitScatterKernel(const KernelInfo &Info, const std::vector<const ScatterSite *> &Updates, ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    const ScatterSite &S = *Updates.front();
    llvm::Expected<std::string> Variant = scatter::rewriteKernel(Info, Updates, Ctx);
    if (!Variant) {
      Msg.error(Info.Kernel->getLocation(), "cannot rewrite kernel '" + Info.Kernel->getNameAsString() +
                                                "': " + llvm::toString(Variant.takeError()));
      return false;
    }
    CharSourceRange R = fileRange(inkernel::declarationRange(Info), SM, Ctx.getLangOpts());
    const std::string Executor = S.Assign ? "keeps the highest thread's value of each element"
                                          : "adds them per element, in thread order";
    std::string Text = "\n\n// irregfix: '" + Info.Kernel->getNameAsString() +
                       "' writing each thread's contribution to a buffer instead of updating " + S.Target.quoted() +
                       "; the runtime " + Executor + ". The original above is the fallback.\n" +
                       *Variant + "\n\n" + scatter::launcherDefinition(Info, Updates, Ctx) + "\n";
    ++Result.KernelsRewritten;
    return add(tooling::Replacement(SM, R.getEnd(), 0, Text));
  }

  bool emitKernel(const KernelDecision &D, ASTContext &Ctx) {
    const KernelInfo &Info = D.Info;
    if (const auto Updates = D.rewrittenScatters(); !Updates.empty())
      return emitScatterKernel(Info, Updates, Ctx);
    if (!Info.hasTransformableSite() && !Info.OrderOnly) {
      Msg.error(Info.Kernel->getLocation(), "internal error: nothing to rewrite in kernel '" +
                                                Info.Kernel->getNameAsString() + "'");
      return false;
    }
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
                       (Info.OrderOnly ? "' running its threads in a locality order; the original "
                                       : "' reading its indirect arrays through coalesced copies; the original ") +
                       "above is the fallback.\n" +
                       inkernel::pieceTypeDefinitions(Info, Ctx) + *Kernel + "\n\n";
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

  bool emitLaunch(const CUDAKernelCallExpr *Launch, const KernelInfo &Info, ASTContext &Ctx, bool *Done) {
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::Expected<tooling::Replacement> R = inkernel::rewriteLaunch(Launch, Info, Ctx);
    if (!R) {
      Msg.warning(Launch->getBeginLoc(), "launch of '" + Info.Kernel->getNameAsString() +
                                             "' left unchanged, it runs the original kernel: " +
                                             llvm::toString(R.takeError()));
      return true;
    }
    // A launch before the kernel's definition (in the translation unit) needs
    // the launcher declared first.
    const FunctionDecl *First = Info.source()->getFirstDecl();
    const bool BeforeDefinition =
        SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Launch->getBeginLoc()),
                                     SM.getExpansionLoc(inkernel::declarationRange(Info).getBegin()));
    if (BeforeDefinition && Info.Template) {
      Msg.warning(Launch->getBeginLoc(), "launch of kernel template '" + Info.Kernel->getNameAsString() +
                                             "' before its definition left unchanged; it runs the original kernel");
      return true;
    }
    if (BeforeDefinition && First != Info.Kernel && Declared.insert(Info.Kernel).second) {
      CharSourceRange D = fileRange(First->getSourceRange(), SM, Ctx.getLangOpts());
      SourceLocation Semi = Lexer::findLocationAfterToken(SM.getExpansionRange(First->getEndLoc()).getEnd(),
                                                          tok::semi, SM, Ctx.getLangOpts(), false);
      SourceLocation At = Semi.isValid() ? Semi : D.getEnd();
      if (!add(tooling::Replacement(SM, At, 0, "\n" + inkernel::launcherDeclaration(Info, Ctx))))
        return false;
    }
    ++Result.LaunchesRewritten;
    *Done = true;
    return add(*R);
  }

  // Which fields a copy of structures holds and how they are grouped, or why
  // it holds whole elements.
  void remarkFields(const Site &S, const SiteArray &A) {
    const FieldSplit &F = A.Fields;
    const std::string Bytes = std::to_string(F.ElementSize) + " bytes an element";
    if (!F.split()) {
      if (!F.WholeBecause.empty())
        Msg.remark(S.Loc, A.Array.quoted() + " is copied whole (" + Bytes + "): " + F.WholeBecause);
      return;
    }
    std::string Pieces;
    for (const FieldPiece &P : F.Pieces) {
      std::string Names;
      for (const PieceField &PF : P.Fields)
        Names += (Names.empty() ? "" : ", ") + PF.Field->getNameAsString();
      Pieces += (Pieces.empty() ? "{" : ", {") + Names + "} (" + std::to_string(P.Size) + " bytes)";
    }
    Msg.remark(S.Loc, A.Array.quoted() + " is copied as the fields the kernel reads, in " +
                          std::to_string(F.Pieces.size()) + (F.Pieces.size() == 1 ? " piece: " : " pieces: ") +
                          Pieces + "; " + std::to_string(F.pieceBytes()) + " of " + Bytes);
  }

  void reportHoisting(const KernelInfo &Info) {
    std::string Kernel = quoted(Info.Kernel);
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

  void report(const KernelDecision &D, ASTContext &Ctx) {
    const KernelInfo &Info = D.Info;
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Kernel = quoted(Info.Kernel);
    for (const Site &S : Info.Sites) {
      SiteReport R = siteReport(S, Info, Ctx);
      std::string What = std::string(pattern_name(S.Pattern)) + " site in " + Kernel;
      if (S.transformable()) {
        std::string Arrays;
        for (const std::string &A : R.Arrays)
          Arrays += (Arrays.empty() ? "'" : ", '") + A + "'";
        if (S.Pattern == kPatternIndexed) {
          // Each copy with the index it is read at, as the kernel writes it.
          std::string Copies;
          for (size_t I = 0; I < S.Arrays.size() && I < S.Indices.size(); ++I)
            Copies += (Copies.empty() ? "'" : ", '") + S.Arrays[I].Array.spelling() + "' at '" +
                      sourceText(S.Indices[I].Index->getSourceRange(), SM, Ctx.getLangOpts()) + "'";
          Msg.remark(S.Loc, What + " transformed: " + Copies + " read through coalesced copies" +
                                (S.IndexedLoop.Loop ? " over the loop's iterations" : "") +
                                ", their indices computed by generated kernels");
        } else {
          Msg.remark(S.Loc, What + " transformed: " + Arrays + " read through a coalesced copy indexed by '" +
                                R.Offsets + "'");
        }
        for (const SiteArray *A : S.remappedArrays())
          remarkFields(S, *A);
        if (S.Renumbered)
          for (const Site::RenumberedGather::Gathered &X : S.Renumbered->Arrays)
            Msg.note(X.Bases.front()->getBeginLoc(),
                     X.Array.quoted() + " is read only at the values of " +
                         S.remappedArrays()[S.Renumbered->Through]->Array.quoted() +
                         ": in the locality order, through a copy of it in that order (renumbered)");
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
        Msg.remark(S.Loc, What + " not transformed: " + R.Reason);
      }
      Result.Sites.push_back(std::move(R));
    }
    // Device-only code in the functions the kernel calls: stores there drop
    // every copy at the launch (a remark there says so); reads are not seen.
    for (const DeviceOnlyCallee &C : D.DeviceOnlyCallees)
      if (DeviceOnlyRemarked.insert(C.Region).second && !C.MayStore)
        Msg.remark(C.Region->Range.getBegin(),
                   "the code of '" + C.Function->getNameAsString() + "' that only the device compilation sees "
                   "(__CUDA_ARCH__) is not analysed, its reads not reported: irregfix reads the host "
                   "compilation's");
    if (Info.OrderOnly) {
      Msg.remark(Info.Kernel->getLocation(),
                 "threads of " + Kernel + " may run in a locality order that a site over as many threads "
                 "computes (its indirect reads then fall near each other's); timed against the original");
      Result.Sites.push_back(orderReport(Info, Ctx));
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
        Neighbors |= S.transformable() && S.Pattern == kPatternNeighbors;
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

  void reportScatters(const KernelInfo &Info, const std::vector<ScatterSite> &Updates, ASTContext &Ctx) {
    const std::string What = "scatter site in '" + Info.Kernel->getNameAsString() + "'";
    for (const ScatterSite &S : Updates) {
      if (S.transformable() && S.Assign)
        Msg.remark(S.Loc, What + " transformed: assignments of " + S.Target.quoted() + " through " +
                              S.Index.quoted() + " run as an inspector-executor (each thread's value written to a "
                              "buffer, the highest thread's kept per element, as a loop over the threads would)");
      else if (S.transformable())
        Msg.remark(S.Loc, What + " transformed: updates of " + S.Target.quoted() + " through " + S.Index.quoted() +
                              " run as an inspector-executor (each thread's contribution written to a buffer, "
                              "added per element in thread order, without atomics)");
      else
        Msg.remark(S.Loc, What + " not transformed: " + S.RefusedBecause);
      Result.Sites.push_back(scatterReport(S, Info, Ctx));
    }
  }

  // Every indirect read: a row of the report, and a remark for each that no
  // site's own remark already explains.
  void reportReads(const KernelInfo &Info, ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    // A read a site holds, or in the loop (or at the read) a refused site is
    // about: that site's remark speaks for it.
    auto Within = [&](SourceLocation L, const Stmt *S) {
      return S && !SM.isBeforeInTranslationUnit(L, S->getBeginLoc()) &&
             !SM.isBeforeInTranslationUnit(S->getEndLoc(), L);
    };
    auto InSite = [&](const Expr *Read, const std::string &) {
      for (const Site &S : Info.Sites) {
        for (const SiteArray &A : S.Arrays)
          for (const Expr *R : A.Reads)
            if (R->getBeginLoc() == Read->getBeginLoc())
              return true;
        if (!S.transformable() && (S.Loc == Read->getBeginLoc() || Within(Read->getBeginLoc(), S.Loop)))
          return true;
      }
      return false;
    };
    for (const ReadVerdict &V : Info.Reads) {
      ReadReport R = readReport(V, Info, Ctx);
      if (V.Verdict == ReadVerdict::NotRewritten && !InSite(V.Read, V.Reason))
        Msg.remark(V.Read->getBeginLoc(), "indirect read of '" + V.Array + "' in '" + R.Kernel + "'" +
                                              (V.In.empty() ? "" : " (in '" + V.In + "')") +
                                              " not rewritten: " + V.Reason);
      Result.Reads.push_back(std::move(R));
    }
  }

  CompilerInstance &CI;
  const RewriteOptions &Opts;
  FileResult &Result;
  const RewritableFiles &Files;
  const DeviceOnlyCode &DeviceOnly;
  Messages Msg;
  std::set<const FunctionDecl *> Declared;
  std::set<const DeviceOnlyCode::Region *> DeviceOnlyRemarked; // one remark a region
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
    Files = std::make_unique<RewritableFiles>(CI.getPreprocessor(), Opts.NotRewritten);
    CI.getPreprocessor().addPPCallbacks(Files->recorder());
    CI.getPreprocessor().addPPCallbacks(newDependencyRecorder(SM, R.Dependencies));
    DeviceOnly = std::make_unique<DeviceOnlyCode>(CI.getPreprocessor());
    CI.getPreprocessor().addPPCallbacks(DeviceOnly->recorder());
    return std::make_unique<RewriteConsumer>(CI, Opts, R, *Files, *DeviceOnly);
  }

private:
  const RewriteOptions &Opts;
  std::vector<FileResult> *Results;
  std::unique_ptr<RewritableFiles> Files;
  std::unique_ptr<DeviceOnlyCode> DeviceOnly;
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
