#include "Frontend/Remarks.h"
#include "Analysis/AstUtil.h"
#include "Frontend/ReportRows.h"
#include "Transform/SourceText.h"

using namespace clang;

namespace irregfix {

void VerdictRemarks::say(const KernelDecision &D, std::vector<SiteReport> &Sites, std::vector<ReadReport> &Reads) {
  const KernelInfo &Info = D.Info;
  if (!D.LeftAsIs.empty()) {
    Msg.remark(Info.Kernel->getLocation(), "kernel " + quoted(Info.Kernel) + " left as it is: " + D.LeftAsIs);
    return;
  }
  for (const Site &S : Info.Sites)
    site(S, Info, Sites);
  deviceOnlyCode(D);
  if (Info.OrderOnly) {
    Msg.remark(Info.Kernel->getLocation(),
               "threads of " + quoted(Info.Kernel) + " may run in a locality order that a site over as many "
               "threads computes (its indirect reads then fall near each other's); timed against the original");
    Sites.push_back(orderReport(Info, Ctx));
  }
  if (Info.hasTransformableSite())
    kernelWide(Info);
  if (Info.Hoist.Requested)
    hoisting(Info);
  for (const ScatterSite &S : D.Scatters)
    scatter(S, Info, Sites);
  reads(Info, Reads);
}

void VerdictRemarks::site(const Site &S, const KernelInfo &Info, std::vector<SiteReport> &Rows) {
  SiteReport R = siteReport(S, Info, Ctx);
  const std::string What = std::string(pattern_name(S.Pattern)) + " site in " + quoted(Info.Kernel);
  if (S.transformable())
    transformed(S, R, What);
  else
    Msg.remark(S.Loc, What + " not transformed: " + R.Reason);
  Rows.push_back(std::move(R));
}

void VerdictRemarks::transformed(const Site &S, const SiteReport &Row, const std::string &What) {
  if (S.Pattern == kPatternIndexed) {
    // Each copy with the index it is read at, as the kernel writes it.
    std::string Copies;
    auto Text = [&](const Expr *E) { return sourceText(E->getSourceRange(), Ctx.getSourceManager(), Ctx.getLangOpts()); };
    for (size_t I = 0; I < S.Arrays.size() && I < S.Indices.size(); ++I) {
      const Site::IndexedCopy &C = S.Indices[I];
      std::string At = flatIndexText(C.Rows, Text(C.Index), Text, "");
      for (const Expr *Offset : C.Offsets) // read through a local pointer into the array
        At = Text(Offset) + " + " + At;
      Copies += (Copies.empty() ? "'" : ", '") + S.Arrays[I].Array.spelling() + "' at '" + At + "'";
    }
    Msg.remark(S.Loc, What + " transformed: " + Copies + " read through coalesced copies" +
                          (!S.IndexedLoop.Loop                ? ""
                           : S.IndexedInnerLoops.empty() ? " over the loop's iterations"
                                                         : " over the iterations of its nest of " +
                                                               std::to_string(S.IndexedInnerLoops.size() + 1) +
                                                               " loops") +
                          ", their indices computed by generated kernels");
  } else {
    std::string Arrays;
    for (const std::string &A : Row.Arrays)
      Arrays += (Arrays.empty() ? "'" : ", '") + A + "'";
    Msg.remark(S.Loc, What + " transformed: " + Arrays + " read through a coalesced copy indexed by '" +
                          Row.Offsets + "'");
  }
  for (const SiteArray *A : S.remappedArrays())
    fields(S, *A);
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
    Msg.note(W.param()->getLocation(),
             W.quoted() + " is written and may alias " + Sources + ": checked at each launch");
}

// Which fields a copy of structures holds and how they are grouped, or why it
// holds whole elements.
void VerdictRemarks::fields(const Site &S, const SiteArray &A) {
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

// Device-only code in the functions the kernel calls: stores there drop every
// copy at the launch (a remark there says so); reads are not seen.
void VerdictRemarks::deviceOnlyCode(const KernelDecision &D) {
  for (const DeviceOnlyCallee &C : D.DeviceOnlyCallees)
    if (DeviceOnlyRemarked.insert(C.Region).second && !C.MayStore)
      Msg.remark(C.Region->Range.getBegin(),
                 "the code of '" + C.Function->getNameAsString() + "' that only the device compilation sees "
                 "(__CUDA_ARCH__) is not analysed, its reads not reported: irregfix reads the host "
                 "compilation's");
}

// What a kernel with a transformed site allows: permuted threads, sharing, chunks.
void VerdictRemarks::kernelWide(const KernelInfo &Info) {
  const std::string Kernel = quoted(Info.Kernel);
  if (Info.Perm.Permutable) {
    Msg.remark(Info.Kernel->getLocation(),
               "threads of " + Kernel + " may be permuted (SELL-32-sigma regroups rows by length)");
    lanes(Info);
  } else
    Msg.remark(Info.Kernel->getLocation(),
               "threads of " + Kernel + " keep their order (no SELL-32-sigma): " + Info.Perm.NotBecause);
  // Sharing concerns neighbour-list sites only: say it where there is one.
  const bool Neighbors =
      llvm::any_of(Info.Sites, [](const Site &S) { return S.transformable() && S.Pattern == kPatternNeighbors; });
  if (Info.Share.Shareable)
    Msg.remark(Info.Sites[Info.Share.SiteIndex].Loc,
               "blocks of " + Kernel + " may stage the elements their threads share in shared memory "
                                       "(sharing layout)");
  else if (Neighbors)
    Msg.remark(Info.Kernel->getLocation(), "no sharing layout for " + Kernel + ": " + Info.Share.NotBecause);
  // Most kernels are chunkable; say so only when one is not.
  if (!Info.Chunks.Chunkable)
    Msg.remark(Info.Kernel->getLocation(), "launches of " + Kernel +
                                               " run whole (no remap overlapping the kernel): " +
                                               Info.Chunks.NotBecause);
}

// Whether its rows may run with several lanes each, and how the lanes combine;
// why not, as a note on the remark about its threads.
void VerdictRemarks::lanes(const KernelInfo &Info) {
  const CooperativeRows &Rows = Info.Lanes;
  if (!Rows.Qualifies) {
    if (!Rows.NotBecause.empty())
      Msg.note(Info.Kernel->getLocation(),
               "rows of " + quoted(Info.Kernel) + " run one thread each (no warp-cooperative rows): " +
                   Rows.NotBecause);
    return;
  }
  static const char *const Names[] = {"sum",     "product", "min",     "max",      "and",
                                      "or",      "xor",     "logical and", "logical or", "flag"};
  if (Rows.InOrder) {
    Msg.remark(Rows.Loop->getBeginLoc(),
               "rows of " + quoted(Info.Kernel) + " may run with several lanes each (warp-cooperative rows: the "
               "lanes load the row's elements together, and each lane runs the loop over them in the original's "
               "order; exact)");
    return;
  }
  std::string Combined;
  for (const RowAccumulator &A : Rows.Accumulators)
    Combined += (Combined.empty() ? "" : ", ") + std::string(Names[A.Op]) + " of " + quoted(A.Var);
  Msg.remark(Rows.Loop->getBeginLoc(),
             "rows of " + quoted(Info.Kernel) + " may run with several lanes each (warp-cooperative rows: " +
                 (Combined.empty() ? std::string("nothing to combine") : Combined + " combined by shuffles") +
                 (Rows.Reassociates ? "; floating-point results may differ from the original's in the last bits, "
                                      "as --reassociate allows"
                                    : "; exact in any order") +
                 ")");
}

void VerdictRemarks::hoisting(const KernelInfo &Info) {
  const std::string Kernel = quoted(Info.Kernel);
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

void VerdictRemarks::scatter(const ScatterSite &S, const KernelInfo &Info, std::vector<SiteReport> &Rows) {
  const std::string What = "scatter site in '" + Info.Kernel->getNameAsString() + "'";
  if (S.transformable() && S.Assign)
    Msg.remark(S.Loc, What + " transformed: assignments of " + S.Target.quoted() + " through " + S.Index.quoted() +
                          " run as an inspector-executor (each thread's value written to a buffer, the highest "
                          "thread's kept per element, as a loop over the threads would)");
  else if (S.transformable())
    Msg.remark(S.Loc, What + " transformed: updates of " + S.Target.quoted() + " through " + S.Index.quoted() +
                          " run as an inspector-executor (each thread's contribution written to a buffer, "
                          "added per element in thread order, without atomics)");
  else
    Msg.remark(S.Loc, What + " not transformed: " + S.RefusedBecause);
  Rows.push_back(scatterReport(S, Info, Ctx));
}

// Every indirect read: a row of the report, and a remark for each that no
// site's own remark already explains.
void VerdictRemarks::reads(const KernelInfo &Info, std::vector<ReadReport> &Rows) {
  const SourceManager &SM = Ctx.getSourceManager();
  // A read a site holds, or in the loop (or at the read) a refused site is
  // about: that site's remark speaks for it.
  auto Within = [&](SourceLocation L, const Stmt *S) {
    return S && !SM.isBeforeInTranslationUnit(L, S->getBeginLoc()) && !SM.isBeforeInTranslationUnit(S->getEndLoc(), L);
  };
  auto InSite = [&](const Expr *Read) {
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
  for (const ReadVerdict &Decided : Info.Reads) {
    ReadVerdict V = Decided;
    // The domain's remark speaks for a read it serves as written.
    if (V.Verdict == ReadVerdict::NotRewritten && Renumbered && Renumbered->count(V.Read)) {
      V.Verdict = ReadVerdict::Renumbered;
      V.Reason = Renumbered->at(V.Read);
    }
    ReadReport R = readReport(V, Info, Ctx);
    if (V.Verdict == ReadVerdict::NotRewritten && !InSite(V.Read))
      Msg.remark(V.Read->getBeginLoc(), "indirect read of '" + V.Array + "' in '" + R.Kernel + "'" +
                                            (V.In.empty() ? "" : " (in '" + V.In + "')") +
                                            " not rewritten: " + V.Reason);
    Rows.push_back(std::move(R));
  }
}

} // namespace irregfix
