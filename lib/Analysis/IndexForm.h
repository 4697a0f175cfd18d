// Index forms: what an integer expression of a kernel is, symbolically, over
// the thread index t, the variables of the loops around it, values that do not
// change during the launch (invariants), and values loaded from memory. Every
// spelling of the same computation gives the same form: locals are followed to
// their initialisers, casts and parentheses vanish, `A[i]`, `*(A + i)`,
// `__ldg(&A[i])`, `p[i].f` and `p->f` are all loads. An index is *indirect*
// when its form contains a load. The site analyses classify reads by their
// forms, and the indexed strategy computes a form again, outside the kernel, in
// a generated kernel (Analysis/IndexText.h).
#pragma once

#include "Analysis/ArrayRef.h"
#include "Analysis/InlineCalls.h"
#include "Analysis/LocalValues.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <map>
#include <tuple>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace irregfix {

class WriteSet;
struct Form;
struct MemoryRead;
using FormRef = std::shared_ptr<const Form>;

struct Form {
  enum Kind {
    Const,     // an integer constant: Value
    Thread,    // the thread's 1-D global index (or a grid-stride loop's variable), or a
               // linear index of 2-D or 3-D ones (Linear: i + nx * j, ThreadIndex.h)
    LoopVar,   // the variable Var of a loop around the expression
    Invariant, // the same value for every thread of the launch: a parameter, a constant
    Load,      // a value read from memory: Array (when a parameter or struct field names it,
               // directly or through a local pointer into it: PointerAliases.h) at Ops[0];
               // Field: the struct member read, if any
    Position,  // the thread's place in the launch other than the index Thread stands for (a field of
               // threadIdx or blockIdx, the global index in y or z), or the launch's shape (a field
               // of blockDim or gridDim: Shape): Source; the same in any kernel launched alike
    Op,        // an operation Name over Ops ("+", "*", "/", "?:", "call f"...)
    Unknown,   // what the analysis cannot follow: Why
  };
  Kind K = Unknown;
  long long Value = 0;
  const clang::VarDecl *Var = nullptr;
  ArrayRef Array;                          // Load
  const clang::FieldDecl *Field = nullptr; // Load of p[i].f or p->f
  std::string Name;                        // Op
  std::vector<FormRef> Ops;
  std::string Why;                     // Unknown; a Load of no Array: why its local pointer is not followed
  // An Unknown whose reason quotes source text: WhyBefore, the text of
  // Spelled, WhyAfter, spelled when asked (most reasons are never shown).
  const char *WhyBefore = nullptr, *WhyAfter = nullptr;
  const clang::Expr *Spelled = nullptr;
  const clang::ASTContext *SpelledIn = nullptr;
  bool MayLoad = false;                // Unknown: its value may come from memory
  const clang::Expr *Source = nullptr; // the expression (Load: the read itself)
  bool Linear = false;                 // Thread: Source numbers the threads from 2-D or 3-D indices
  bool Shape = false;                  // Position: the launch's shape, the same for every thread

  // Forms share their parts (a local's form is part of every form that uses
  // it), so a form's tree may be far larger than the graph built: the
  // builder sets these from the parts' once, and a form whose tree would pass
  // a bound is not followed (an Unknown that may load when a part does).
  size_t TreeSize = 1;
  bool Loads = false, Known = true, UsesThread = false;
  int LoadDepth = 0;

  // Whether the value depends on memory: a Load, or an Unknown that may load.
  bool dependsOnLoad() const { return Loads; }
  // Whether the form is fully known (no Unknown inside).
  bool known() const { return Known; }
  // The first Unknown's reason, or "".
  std::string unknownWhy() const;
  // An Unknown's own reason.
  std::string why() const;
  bool usesThread() const { return UsesThread; }
  bool uses(const clang::VarDecl *LoopVar) const;
  // Loop variables used, in no particular order.
  void loopVars(std::set<const clang::VarDecl *> &Out) const;
  // Every Load inside, outermost first.
  void loads(std::vector<const Form *> &Out) const;
  // Every Position inside.
  void positions(std::vector<const Form *> &Out) const;
  // Depth of nested loads: A[B[t]] has 1 (the index of A), A[B[C[t]]] 2.
  int loadDepth() const { return LoadDepth; }
  // A readable rendering: `load(B, t)`, `load(B, t + 1) - load(B, t)`.
  std::string str() const;
};

// Builds forms for one kernel: knows its writes (a local assigned twice or a
// parameter reassigned is not followed), the loops whose variables are in
// scope, and which variable (if any) is the thread index.
class FormBuilder {
public:
  FormBuilder(const clang::FunctionDecl *Kernel, const WriteSet &Writes, clang::ASTContext &Ctx);

  // The loop variables in scope where the next expressions are (innermost last).
  void setLoopVars(const std::vector<const clang::VarDecl *> &Vars);
  // For a device function the kernel calls: its parameters that some call
  // gives a value loaded from memory (their forms are unknown, and may load).
  void setLoadedParams(std::set<const clang::ParmVarDecl *> Params);

  FormRef of(const clang::Expr *E);
  // The element index of a read: its Index's form, or for a read of several
  // dimensions the flat index (Rows' subscripts times their strides, plus Index).
  FormRef indexOf(const MemoryRead &R);
  // Offset + Index: an element reached through a local pointer at Offset.
  FormRef sum(const clang::Expr *Offset, FormRef Index);

  // The array and element a read expression reads, when it is a read of memory
  // (`A[i]`, `*(A + i)`, `__ldg(&A[i])`, `p->f`): its form (a Load), or null.
  FormRef readOf(const clang::Expr *E);

private:
  FormRef build(const clang::Expr *E, int Depth);
  FormRef load(const MemoryRead &R, int Depth);
  FormRef element(const MemoryRead &R, int Depth);
  FormRef variable(const clang::VarDecl *V, const clang::Expr *At, int Depth);
  FormRef local(const clang::VarDecl *V, const clang::Stmt *Pos, const clang::Expr *At, int Depth);
  // Whether a definition of a local runs under a condition on loaded values.
  bool chosenByLoad(const clang::Expr *Def, int Depth);
  // A call of a small function (InlineCalls.h): the form of what it returns.
  FormRef inlined(const clang::CallExpr *C, const clang::Expr *Returned, std::vector<FormRef> Args, int Depth);
  // What Expr::EvaluateAsInt folds E to (none when it does not), each
  // expression evaluated once; not evaluated where an operand that the
  // operation must evaluate does not fold (neither can the whole).
  std::optional<llvm::APSInt> constantOf(const clang::Expr *E);
  // A parenthesised or integer-converted operand's folded value, as Clang's
  // evaluator would give it for E (none when the operand's is not known).
  std::optional<llvm::APSInt> passedThrough(const clang::Expr *E);

  const clang::FunctionDecl *Kernel;
  const WriteSet &Writes;
  clang::ASTContext &Ctx;
  std::vector<const clang::VarDecl *> LoopVars;
  std::set<const clang::ParmVarDecl *> LoadedParams;
  const LocalValues &Values;
  // Whether the function reads the y or z field of threadIdx or blockIdx:
  // only then may an index be a linear one of several dimensions (asked of
  // every sum and local).
  bool ReadsOtherDimensions;
  // The calls being inlined, innermost last, with their arguments' forms.
  struct Frame {
    InlineScope Scope;
    std::vector<FormRef> Args;
  };
  std::vector<Frame> Frames;
  // Followed locals, by variable and definition.
  using LocalKey = std::tuple<const clang::VarDecl *, const clang::Expr *, const clang::Expr *, const clang::Expr *,
                              const clang::Stmt *>;
  std::map<LocalKey, FormRef> Locals;
  // What the values of a local with no one value come to, by variable and
  // depth (a register assigned at every swap of a sorting network is asked
  // about at every use): whether one may come from memory, whether one is
  // chosen by a loaded value. Valid for the loop variables and loaded
  // parameters set, outside inlined calls.
  struct Spread {
    bool MayLoad = false, ChosenByLoad = false;
  };
  std::map<std::pair<const clang::VarDecl *, int>, Spread> Spreads;
  // constantOf's results: the long sums of straight-line kernels are asked
  // about at every level of their trees.
  llvm::DenseMap<const clang::Expr *, std::optional<llvm::APSInt>> Constants;
};

// A subscript of a read of several dimensions other than the last, with the
// elements of the flat array one step of it skips (`a` of `p->m[a][b]` with
// `int m[16][8]`: 8).
struct RowSubscript {
  const clang::Expr *Index = nullptr;
  unsigned long long Stride = 0;
};
using RowSubscripts = llvm::SmallVector<RowSubscript, 2>;

// A read of memory in a kernel: its expression, and where the element lies:
// Base the pointer expression (`A`, `g.col`, `p`), Index the element index
// (null for p->f and *p), Field the member read (p[i].f, p->f). A read of a
// member of several dimensions of the struct a pointer points to
// (`p->m[a][b]`) is one of the flat array `p->m` at a * 8 + b: Rows holds a,
// Index b.
struct MemoryRead {
  const clang::Expr *Read = nullptr;
  const clang::Expr *Base = nullptr;
  const clang::Expr *Index = nullptr;
  const clang::FieldDecl *Field = nullptr;
  RowSubscripts Rows;
};

// E as a read of memory, or false: `A[i]`, `A[i].f`, `*(A + i)`, `p->f`,
// `__ldg(&A[i])`, `__ldg(A + i)`, `p->m[a][b]`. Local arrays and shared memory
// are not memory reads of this kind (they are not what the runtime copies),
// and neither is a row of a member of several dimensions (`p->m[a]`).
bool asMemoryRead(const clang::Expr *E, MemoryRead *Out);

// Whether AS subscripts a member of several dimensions of the struct a
// pointer points to in fewer than all of them (`p->m[a]` of `int m[16][8]`):
// a row, whose address is no read.
bool isRowOfMember(const clang::ArraySubscriptExpr *AS);

// The flat index of a read of several dimensions, each subscript as Spell
// writes it, converted by Cast: `(long long)(a) * 8 + (long long)(b)` (Cast
// "(long long)", for code), `(a) * 8 + (b)` (Cast "", for remarks); Last
// alone without rows.
std::string flatIndexText(const RowSubscripts &Rows, const std::string &Last,
                          const std::function<std::string(const clang::Expr *)> &Spell, const char *Cast);

} // namespace irregfix
