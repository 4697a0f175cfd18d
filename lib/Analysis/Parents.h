// Parent look-ups over the AST's traversal scope: what
// ASTContext::getParents gives (the same parents, in the same order), from a
// map of our own. Clang 19's map hashes a node by a few bits of its address,
// and over the nodes of long straight-line kernels (allocated one after the
// other) its look-ups probe long runs of taken buckets: building it was most
// of what the tool added to the parse on such files.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/ParentMapContext.h"

namespace irregfix {

// N's parents (none for a node outside the traversal scope). The map is built
// at the first look-up of a context and kept until the context goes.
clang::DynTypedNodeList parentsOf(const clang::DynTypedNode &N, clang::ASTContext &Ctx);

template <typename T> clang::DynTypedNodeList parentsOf(const T &Node, clang::ASTContext &Ctx) {
  return parentsOf(clang::DynTypedNode::create(Node), Ctx);
}

// Drops Ctx's map: the next look-up builds it again (after the traversal scope changes).
void forgetParents(clang::ASTContext &Ctx);

} // namespace irregfix
