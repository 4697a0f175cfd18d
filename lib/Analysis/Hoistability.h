// Whether a kernel's loop site can be hoisted (--hoist): its loop runs from the
// host, a slice of iterations per launch, and the code after it in a last
// launch. Every launch recomputes the code before the loop, so that code must
// have no side effects; only the locals the loop modifies travel between
// launches, in per-thread buffers.
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"

namespace irregfix {

// (Hoisting itself is declared in Site.h, as part of KernelInfo.)
// A kernel is hoistable when it is not a template and has exactly one
// transformable site, a range, two-level range or neighbour loop, and:
//  - the loop is not nested in another loop or a switch, nor in an `if` with an
//    `else` (threads that skip the loop would run that branch at every launch);
//  - the loop contains no break, return or goto, and neither it nor a function
//    it calls uses barriers, warp or cooperative-group operations, fences,
//    atomics or inline assembly; the kernel has no goto and no shared memory;
//  - the code before the loop stores nothing to memory and calls only functions
//    without side effects (builtins and functions of system headers);
//  - the code before the loop and the loop read no array the kernel writes;
//  - each local declared before the loop that the loop modifies is trivially
//    copyable, not a reference or an array, and never has its address taken;
//    the loop modifies no parameter.
// The kernel's hoisting as --hoist asks for it (Requested set): Hoistable or
// NotBecause, and the site, loop, live locals and enclosing blocks.
Hoisting analyzeHoistability(const KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix
