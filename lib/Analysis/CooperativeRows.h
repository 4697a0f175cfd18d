// Whether a kernel's range loop may run with several lanes a row (warp-
// cooperative rows): L lanes share the row's thread index, lane l takes the
// iterations k = start + l, start + l + L, ..., and the lanes combine what
// the loop accumulates with shuffles. The original's arrays are read in place.
// That gives the original's result only when the lanes, doing the row's
// iterations in another order and apart, can compute nothing else: the loop
// is a reduction by operators whose order does not matter, and whatever else
// the kernel does, one lane does.
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"

namespace irregfix {

// (CooperativeRows itself is declared in RowReduction.h, as part of KernelInfo.)
// A kernel qualifies when:
//  - its threads are independent (Permutability.h: no shared memory,
//    barriers, warp or cooperative-group operations, fences or inline
//    assembly; its thread index a local initialised with blockIdx.x *
//    blockDim.x + threadIdx.x, never written), and neither it nor what it
//    calls reads blockDim or gridDim (the variant runs another grid);
//  - its one transformed site is a one-level range whose loop is neither
//    nested in another loop or a switch nor in an `if` with an `else`, and is
//    not hoisted; its variable is not used after the loop;
//  - the loop is a reduction: every variable declared outside it that it
//    writes is an accumulator (RowReduction.h) that the loop reads only in
//    its own updates, each a statement of its own; integer sums, products,
//    min, max, bitwise and logical operators and flags are exact in any order;
//    floating-point sums, min and max when `Reassociate` (--reassociate), else
//    in order (RowReduction.h, InOrder): the loop's unconditional reads of
//    parameters at its variable loaded together, its body run by every lane
//    over the row's elements one by one;
//  - the loop stores nothing else, calls no atomic, no function that may
//    write (printf included) and no library function with a pointer it may
//    write through, and contains no break, return or goto (continue is fine);
//  - the code before the loop stores nothing to memory and calls nothing with
//    side effects: every lane of the row runs it.
// The code after the loop runs on the row's first lane only.
CooperativeRows analyzeCooperativeRows(const KernelInfo &Info, clang::ASTContext &Ctx, bool Reassociate);

} // namespace irregfix
