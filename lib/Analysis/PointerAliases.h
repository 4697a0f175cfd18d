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
#include "clang/AST/Stmt.h"

#include "llvm/ADT/SmallVector.h"

#include <map>
#include <string>
#include <vector>

namespace irregfix {

class WriteSet;

// Where memory a kernel reads lives, when it is not device memory a copy
// could gather: on the chip, the thread's own, or the launch's arguments.
enum class MemorySpace {
  Device,          // device memory, or not known to be one of the others
  Shared,          // a __shared__ array: on the chip
  ThreadLocal,     // an array or struct the thread declares (or a called function's by-value copy)
  KernelParameter, // inside a struct the kernel takes by value: the launch's parameter space
};

// A called function's pointer and reference parameters that the calls
// reaching it bind to memory other than device memory.
using ParamSpaces = std::map<const clang::ParmVarDecl *, MemorySpace>;

// The end of "... not rewritten: <reason>" for a read of Read (as written)
// in space S other than device memory.
std::string readOfSpace(MemorySpace S, const std::string &Read);

struct PointerInto {
  ArrayRef Array; // none: E is not such a pointer
  // The offsets whose sum is where E points in the array: integer expressions
  // of the function (parts of the locals' initialisers, or of E).
  llvm::SmallVector<const clang::Expr *, 2> Offsets;
  // When E is a local pointer that is not followed: why, as the end of "reads
  // memory through 'p', ..." ("a local pointer that is assigned again").
  std::string Why;
  // The memory E points into, when it is not device memory (through such
  // locals, at any offset; then Array is none).
  MemorySpace Space = MemorySpace::Device;
  // The array E points into at an offset that is not followed (then Array is
  // none and Why says why): a local pointer every assignment of which points
  // into that array, either of two pointers into it, a parameter the function
  // steps along it, an array inside the element a pointer into it points to
  // (`c->a`). Reads through E are reads of it, for judging hazards.
  ArrayRef Within;
};

// What the pointer expression E (the base of a read) points into, through
// local pointers initialised from a parameter array or a pointer field of a
// struct parameter, with an offset (`P + e`, `e + P`, `&P[e]`). Every pointer
// on the way must have the array's element type: an offset counts elements.
// A local pointer assigned later (or stepped), either of two pointers (`c ?
// a : b`) and a parameter the function steps (`p += s`) are followed only to
// the memory they point into: when every value they can hold points into the
// same space or the same array (Space, Within), at an offset not followed.
// Params: what the parameters of E's function (a called one) are bound to.
PointerInto pointerInto(const clang::Expr *E, const WriteSet &W, const ParamSpaces *Params = nullptr);

// The space the object E (an lvalue: a variable, its field, an element, `*p`)
// lives in.
MemorySpace objectSpace(const clang::Expr *E, const WriteSet &W, const ParamSpaces *Params = nullptr);

// How the function that declares pointer V (a local or a parameter) changes
// it after its declaration.
struct PointerChanges {
  std::vector<const clang::Expr *> Assigned; // the right-hand sides of `V = e` (steps aside)
  bool Stepped = false; // `V += e`, `V -= e`, `++V`, `V--`, `V = V + e`: along the memory it points into
  bool Other = false;   // its address or a non-const reference to it is taken; no body to look at
  bool onlyStepped() const { return Stepped && Assigned.empty() && !Other; }
};
PointerChanges pointerChanges(const clang::VarDecl *V);

// A store of V's function through pointer V (`V[i] = x`, `*(V + i) += x`,
// `V->f = x`), or null.
const clang::Stmt *storeThrough(const clang::VarDecl *V);

// Whether Subscript (`P[e]`) is what `&P[e]` takes the address of to
// initialise a local pointer that reads are followed through: the accesses
// are the reads through the pointer, not the subscript itself.
bool startsFollowedPointer(const clang::Expr *Subscript, const WriteSet &W, clang::ASTContext &Ctx);

} // namespace irregfix
