// The nodes of a function body that several analyses visit one by one: its
// stores, calls, constructions, loops, subscripts, lambdas, local classes and
// variables. Five analyses (the local values, the write set, the pattern
// sites, the scatter candidates, the callees for device-only code) look at
// them with a RecursiveASTVisitor each; rather than each walking every
// kernel, the body is walked once, the nodes they look at recorded in the
// order a walk meets them, and each visitor is called on the recorded nodes
// (replayBody).
//
// A visitor replayed here must be one that a plain TraverseStmt(Body) would
// run with RecursiveASTVisitor's defaults (lambda bodies visited, no implicit
// code, no template instantiations), with Visit methods only for the kinds
// recorded (recorded() below) and no Traverse method of its own but
// TraverseLambdaExpr and TraverseCXXRecordDecl (called where the walk would
// call them, the nodes inside then skipped): its methods are then called on
// the same nodes, in the same order.
#pragma once

#include "clang/AST/RecursiveASTVisitor.h" // and every kind of node, for replayBody's dispatch
#include "llvm/ADT/PointerUnion.h"

#include <type_traits>
#include <vector>

namespace irregfix {

struct BodyNode {
  llvm::PointerUnion<clang::Stmt *, clang::Decl *> Node;
  // For a lambda or a local class: the index of the first node after those
  // inside it.
  unsigned End = 0;
};

// The kinds of statement recorded (and their subclasses); every variable and
// every local class (CXXRecordDecl) is.
inline bool recorded(const clang::Stmt *S) {
  return llvm::isa<clang::BinaryOperator, clang::UnaryOperator, clang::CallExpr, clang::CXXConstructExpr,
                   clang::CXXNewExpr, clang::AsmStmt, clang::ForStmt, clang::WhileStmt, clang::ArraySubscriptExpr,
                   clang::LambdaExpr>(S);
}

// Body's recorded nodes in the order a RecursiveASTVisitor visits them;
// recorded at the first request, kept while the AST lives.
const std::vector<BodyNode> &bodyNodes(const clang::Stmt *Body, clang::ASTContext &Ctx);

// Calls V's methods on Body's recorded nodes, as V.TraverseStmt(Body) would;
// stops where one returns false.
template <typename Visitor> void replayBody(Visitor &V, const clang::Stmt *Body, clang::ASTContext &Ctx) {
  using Base = clang::RecursiveASTVisitor<Visitor>;
  constexpr bool OwnLambdas =
      !std::is_same_v<decltype(&Visitor::TraverseLambdaExpr), decltype(&Base::TraverseLambdaExpr)>;
  constexpr bool OwnClasses =
      !std::is_same_v<decltype(&Visitor::TraverseCXXRecordDecl), decltype(&Base::TraverseCXXRecordDecl)>;
  if (!Body)
    return;
  const std::vector<BodyNode> &Nodes = bodyNodes(Body, Ctx);
  for (size_t I = 0; I < Nodes.size(); ++I) {
    bool Went = true;
    if (auto *S = llvm::dyn_cast<clang::Stmt *>(Nodes[I].Node)) {
      if (auto *L = llvm::dyn_cast<clang::LambdaExpr>(S); OwnLambdas && L) {
        Went = V.TraverseLambdaExpr(L);
        I = Nodes[I].End - 1;
      } else {
        switch (S->getStmtClass()) {
#define ABSTRACT_STMT(STMT)
#define STMT(CLASS, PARENT)                                                                                           \
  case clang::Stmt::CLASS##Class:                                                                                     \
    Went = V.WalkUpFrom##CLASS(static_cast<clang::CLASS *>(S));                                                       \
    break;
#include "clang/AST/StmtNodes.inc"
        default:
          break;
        }
      }
    } else {
      auto *D = llvm::cast<clang::Decl *>(Nodes[I].Node);
      if (auto *R = llvm::dyn_cast<clang::CXXRecordDecl>(D); R && R->getKind() == clang::Decl::CXXRecord) {
        if constexpr (OwnClasses) {
          Went = V.TraverseCXXRecordDecl(R);
          I = Nodes[I].End - 1;
        } else {
          Went = V.WalkUpFromCXXRecordDecl(R);
        }
      } else {
        switch (D->getKind()) {
#define ABSTRACT_DECL(DECL)
#define DECL(CLASS, BASE)
#define VAR(CLASS, BASE)                                                                                              \
  case clang::Decl::CLASS:                                                                                            \
    Went = V.WalkUpFrom##CLASS##Decl(static_cast<clang::CLASS##Decl *>(D));                                           \
    break;
#include "clang/AST/DeclNodes.inc"
        default:
          break;
        }
      }
    }
    if (!Went)
      return;
  }
}

} // namespace irregfix
