#include "Analysis/BodyNodes.h"
#include "Analysis/PerContext.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

using namespace clang;

namespace irregfix {

namespace {

// The walk the replayed visitors would each make, noting what they look at.
class BodyRecorder : public RecursiveASTVisitor<BodyRecorder> {
public:
  explicit BodyRecorder(std::vector<BodyNode> &Out) : Out(Out) {}
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitStmt(Stmt *S) {
    if (!recorded(S))
      return true;
    if (isa<LambdaExpr>(S))
      Open.push_back(Out.size());
    Out.push_back({S});
    return true;
  }
  bool dataTraverseStmtPost(Stmt *S) {
    if (isa<LambdaExpr>(S))
      close();
    return true;
  }
  bool VisitVarDecl(VarDecl *D) {
    Out.push_back({D});
    return true;
  }
  bool TraverseCXXRecordDecl(CXXRecordDecl *R) {
    Open.push_back(Out.size());
    Out.push_back({R});
    const bool Went = RecursiveASTVisitor::TraverseCXXRecordDecl(R);
    close();
    return Went;
  }

private:
  // The innermost lambda or class open ends here.
  void close() {
    Out[Open.back()].End = Out.size();
    Open.pop_back();
  }

  std::vector<BodyNode> &Out;
  std::vector<size_t> Open;
};

// Each body's nodes, by body (a vector's place stays put while others are
// recorded: a replay may ask for a callee's body).
struct RecordedBodies {
  llvm::DenseMap<const Stmt *, std::unique_ptr<std::vector<BodyNode>>> Of;
};

} // namespace

const std::vector<BodyNode> &bodyNodes(const Stmt *Body, ASTContext &Ctx) {
  std::unique_ptr<std::vector<BodyNode>> &Slot = PerContext<RecordedBodies>::of(Ctx).Of[Body];
  if (!Slot) {
    auto Nodes = std::make_unique<std::vector<BodyNode>>();
    BodyRecorder(*Nodes).TraverseStmt(const_cast<Stmt *>(Body));
    Slot = std::move(Nodes);
  }
  return *Slot;
}

} // namespace irregfix
