// Kernel side of the in-kernel strategy: derives `<kernel>_irregfix`, a copy
// of the kernel that reads each remapped array through irregfix::slot() (a
// neighbour list through irregfix::neighbor_slot()), with
// its range loops running iter < irregfix::length(view, t).
#pragma once

#include "Transform/SourceText.h"

#include <functional>

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <string>

namespace irregfix::inkernel {

// What another strategy changes in the transformed kernel (the hoisted loop's
// kernel is this kernel with its loop bounded by a slice of iterations).
struct KernelVariant {
  std::string Name;           // the kernel's name; empty: transformedKernelName
  std::string ExtraParams;    // after the sites' parameters, each starting with ", "
  std::string FirstIteration = "0"; // where range loops start ...
  std::string IterationLimit;       // ... and, when set, the iteration they stop before
  // Launched whole: no block offset even for a chunkable kernel (Chunkability.h).
  bool WholeGrid = false;
  // Called once per transformable site after its reads are rewritten, with the
  // thread index its slots use, to add edits of its own.
  std::function<void(SnippetEditor &, const Site &, unsigned Index, const std::string &Thread)> EditSite;
};

// The transformed kernel's source text, ready to be inserted after the original.
llvm::Expected<std::string> rewriteKernel(const KernelInfo &Info, clang::ASTContext &Ctx,
                                          const KernelVariant &Variant = {});

// The element types of the pieces the kernel's split copies are made of
// (`struct alignas(16) <piece> { float x; float y; float z; float mass; };`),
// with static_asserts that the compiler lays the elements out as the tool
// computed: declared before the transformed kernel. Empty when none is split.
std::string pieceTypeDefinitions(const KernelInfo &Info, clang::ASTContext &Ctx);

// Removes K's default arguments in Editor (`float c = 0`): parameters added
// after them would need defaults too, and launchers pass every argument.
void dropDefaultArgumentsOf(const clang::FunctionDecl *K, SnippetEditor &Editor, const clang::SourceManager &SM,
                            const clang::LangOptions &LO);

} // namespace irregfix::inkernel
