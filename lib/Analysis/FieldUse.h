// Which fields of a structure element a site reads, and how its copy holds
// them. Where a gather or neighbour-list site reads an array of structures
// only through some fields (`A[B[t]].x`, or `T v = A[nb[..]]` with only `v.f`
// read afterwards), its copy holds just those fields, grouped in offset order
// into aligned pieces of 16 or 8 bytes (a lone 4-byte field is its own 4-byte
// piece: padding it would double its bytes). Anything else keeps whole
// elements, with the reason: unions, bit-fields, a read field that is a nested
// structure, an array or not a 4- or 8-byte scalar, an element or local used
// whole. Plain data: nothing here edits text.
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"

namespace irregfix {

// Most pieces a copy is split into (the runtime's kMaxFieldPieces).
constexpr unsigned kMaxPieces = 8;

// The SiteArray::Fields of every array of the kernel's sites, by site and
// array: split (or whole, with the reason) for the remapped arrays of
// transformable gather and neighbour-list sites whose element is a structure
// declared in the program (CUDA's vector types, from system headers, are left
// whole, silently); empty for every other.
std::vector<std::vector<FieldSplit>> analyzeFieldUse(const KernelInfo &Info, clang::ASTContext &Ctx);

// The pieces of a copy holding fields of (offset, size) bytes: in offset
// order, each field at its own alignment in the piece, a piece closed when the
// next field does not fit 16 bytes. Exposed for the unit tests.
std::vector<FieldPiece> groupIntoPieces(std::vector<PieceField> Fields);

} // namespace irregfix
