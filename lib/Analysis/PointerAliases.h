// A local pointer into an array the launch can name, at an offset the kernel
// computes: `const int *const nodes = nodelist + 8 * e;` (or `&nodelist[8 * e]`,
// or `nodelist` itself), never changed after. A read through it is a read of
// the array: `nodes[c]` is `nodelist[8 * e + c]`, its offset computed where the
// local is declared. Index forms follow reads through such locals, and the
// indexed strategy's generated kernels read the array at the sum.
#pragma once

#include "Analysis/ArrayRef.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace irregfix {

class WriteSet;

struct PointerInto {
  ArrayRef Array; // none: E is not such a pointer
  // The offsets whose sum is where E points in the array: integer expressions
  // of the function (parts of the locals' initialisers, or of E).
  llvm::SmallVector<const clang::Expr *, 2> Offsets;
  // When E is a local pointer that is not followed: why, as the end of "reads
  // memory through 'p', ..." ("a local pointer that is assigned again").
  std::string Why;
  // E points into a __shared__ array (through such locals, at any offset).
  bool Shared = false;
};

// What the pointer expression E (the base of a read) points into, through
// local pointers initialised from a parameter array or a pointer field of a
// struct parameter, with an offset (`P + e`, `e + P`, `&P[e]`). Every pointer
// on the way must have the array's element type: an offset counts elements.
PointerInto pointerInto(const clang::Expr *E, const WriteSet &W);

// Whether Subscript (`P[e]`) is what `&P[e]` takes the address of to
// initialise a local pointer that reads are followed through: the accesses
// are the reads through the pointer, not the subscript itself.
bool startsFollowedPointer(const clang::Expr *Subscript, const WriteSet &W, clang::ASTContext &Ctx);

} // namespace irregfix
