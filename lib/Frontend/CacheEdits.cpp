#include "Frontend/CacheEdits.h"
#include "Analysis/HostWrites.h"
#include "Transform/Invalidation.h"

#include "clang/AST/Attr.h"

using namespace clang;

namespace irregfix {

namespace {

// The bodies that get an entry guard: every function that reaches such a
// launch drops the copies when it is entered from code the tool cannot see.
// Without a main() here that is how the file is used: say so.
std::vector<const Stmt *> guardedBodies(const MainFile &File, const RewrittenLaunches &Launches,
                                        const HostWriteAnalysis &Host, Messages &Msg) {
  std::vector<const Stmt *> Guarded;
  std::vector<const FunctionDecl *> Reaching = functionsReaching(File, Launches.In, Host);
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
  return Guarded;
}

} // namespace

bool addCacheEdits(const MainFile &File, const RewrittenLaunches &Launches, const DeviceOnlyCode &DeviceOnly,
                   ASTContext &Ctx, FileEdits &Edits, Messages &Msg, FileResult &Result) {
  const RewritableFiles &Files = Edits.files();
  HostWriteAnalysis Host(Ctx, [&Files](SourceLocation L) { return Files.contains(L); }, &DeviceOnly);
  std::vector<HostWrite> Writes;
  for (auto [Call, Fn] : File.Calls) {
    HostEffect E = effectOfCall(File, Call, Host);
    if (!E.empty())
      Writes.push_back({Call, std::move(E)});
  }
  const std::vector<const Stmt *> Guarded = guardedBodies(File, Launches, Host, Msg);

  InvalidationEdits Inv = invalidations(Writes, Guarded, Launches.Ranges, Ctx);
  for (const tooling::Replacement &R : Inv.Edits)
    if (!Edits.add(R))
      return false;
  Result.Invalidations = Inv.Points - Inv.Skipped.size();
  Result.EntryGuards = Inv.Guards;
  for (auto &[E, Why] : Inv.Drops)
    Msg.remark(E->getBeginLoc(), "cached copies are dropped here: " + Why);
  for (auto &[E, Why] : Inv.Skipped)
    if (E)
      Msg.warning(E->getBeginLoc(), "cannot insert cache invalidation for this write (" + Why +
                                        "); call irregfix_invalidate() on the pointer after it");
  return true;
}

} // namespace irregfix
