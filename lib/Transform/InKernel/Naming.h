// Names shared by the kernel-side and host-side rewriters of the in-kernel
// strategy, so the transformed kernel and its launcher agree.
#pragma once

#include "Analysis/Overloads.h"
#include "Analysis/Site.h"

#include "clang/AST/DeclTemplate.h"

#include "clang/AST/ASTContext.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace irregfix::inkernel {

inline std::string transformedKernelName(const clang::FunctionDecl *K) {
  return K->getNameAsString() + "_irregfix";
}
inline std::string launcherName(const clang::FunctionDecl *K) {
  return K->getNameAsString() + "_irregfix_launch";
}
inline std::string viewName(unsigned Site) { return "__irregfix_v" + std::to_string(Site); }
inline std::string remappedName(unsigned Site, const ArrayRef &A) {
  return viewName(Site) + "_" + A.identifier();
}
// The copy of a site's array: an indexed site may copy one array at several
// indices (`vars[nb]`, `vars[nb + n]`), so its copies are numbered.
inline std::string remappedName(const Site &S, unsigned Site, const SiteArray &A) {
  if (S.Pattern != kPatternIndexed)
    return remappedName(Site, A.Array);
  return remappedName(Site, A.Array) + "_" + std::to_string(&A - S.Arrays.data());
}
// What the kernel reads in place of a site's renumbered gather X
// (Site::Renumbered): X itself, or its copy in the locality order.
inline std::string renumberedName(unsigned Site, const ArrayRef &X) { return remappedName(Site, X) + "_renumbered"; }
inline std::string iterName(unsigned Site) { return "__irregfix_iter" + std::to_string(Site); }
inline std::string lengthName(unsigned Site) { return "__irregfix_len" + std::to_string(Site); }
// A permutable kernel's physical thread index (its own index is the logical one).
inline std::string physicalThreadName() { return "__irregfix_p"; }
// A chunkable kernel's parameter: the first block of the chunk being launched.
inline std::string blockOffsetName() { return "__irregfix_block_offset"; }
// The shared-memory array a shareable kernel stages its copy in (sharing layout).
inline std::string stageName() { return "__irregfix_stage"; }
// Overloaded kernels' sites add the kernel's position among its overloads
// (`__irregfix_site_k__1_0`): each kernel's are defined beside it, in one scope.
inline std::string siteInfoName(const clang::FunctionDecl *K, unsigned Site) {
  int Overload = kernelOverloadIndex(K);
  return "__irregfix_site_" + K->getNameAsString() + (Overload < 0 ? "" : "__" + std::to_string(Overload)) + "_" +
         std::to_string(Site);
}

// A copy split into field pieces (SiteArray::Fields): piece P's parameter, and
// its element type, declared before the transformed kernel.
inline std::string pieceName(unsigned Site, const ArrayRef &A, unsigned Piece) {
  return remappedName(Site, A) + "_piece" + std::to_string(Piece);
}
inline std::string pieceTypeName(const clang::FunctionDecl *K, unsigned Site, const ArrayRef &A, unsigned Piece) {
  const std::string Prefix = "__irregfix_site_";
  return "__irregfix_piece_" + siteInfoName(K, Site).substr(Prefix.size()) + "_" + A.identifier() + "_" +
         std::to_string(Piece);
}

// The table of a split copy's pieces the launcher passes to the runtime.
inline std::string fieldPiecesName(const clang::FunctionDecl *K, unsigned Site, const ArrayRef &A) {
  return siteInfoName(K, Site) + "_" + A.identifier() + "_pieces";
}

// A kernel parameter's name in generated code (`__irregfix_arg2` when unnamed).
inline std::string paramName(const clang::ParmVarDecl *P, unsigned I) {
  return P->getName().empty() ? "__irregfix_arg" + std::to_string(I) : P->getNameAsString();
}

// The kernel's parameters as arguments: `n, B, A, y`.
inline std::string argumentList(const clang::FunctionDecl *K) {
  std::string Out;
  for (unsigned I = 0; I < K->getNumParams(); ++I)
    Out += (I ? ", " : "") + paramName(K->getParamDecl(I), I);
  return Out;
}

// The kernel's parameters as declared in generated functions: `int n, const int *B`.
inline std::string parameterList(const clang::FunctionDecl *K, const clang::ASTContext &Ctx) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  for (unsigned I = 0; I < K->getNumParams(); ++I) {
    const clang::ParmVarDecl *P = K->getParamDecl(I);
    OS << (I ? ", " : "");
    P->getType().print(OS, Ctx.getPrintingPolicy(), paramName(P, I));
  }
  return Out;
}

// The declaration a kernel's text and parameter types come from: the template
// for a kernel template, so that types print as written (`const T *`).
inline const clang::FunctionDecl *sourceDecl(const KernelInfo &Info) { return Info.source(); }

// `template <class T, int N>\n` of a kernel template, or nothing: generated
// functions of a template are templates of the same parameters.
std::string templateHeader(const KernelInfo &Info, clang::ASTContext &Ctx);

// `<T, N>`: the template's own parameters as arguments, or nothing.
std::string templateArguments(const KernelInfo &Info);

// The full declaration range of the kernel, `template <...>` included.
inline clang::SourceRange declarationRange(const KernelInfo &Info) {
  if (const clang::FunctionTemplateDecl *FT = Info.source()->getDescribedFunctionTemplate())
    return FT->getSourceRange();
  return Info.Kernel->getSourceRange();
}

// `const T *` for the remapped copy of A; the kernel parameter adds __restrict__.
// In a kernel template whose parameter's type is itself a template parameter
// (`P A`, P deduced as `const float *`), the element type exists only per
// instantiation: it is named through the parameter's type as written.
inline std::string remappedPointerType(const KernelInfo &Info, const ArrayRef &Array, const clang::ASTContext &Ctx) {
  ArrayRef A = Info.Template ? Array.in(Info.Template) : Array;
  const clang::PrintingPolicy &Policy = Ctx.getPrintingPolicy();
  clang::QualType Written = A.type().getUnqualifiedType();
  if (!Written->isPointerType() && !Written->isArrayType())
    return "const std::remove_pointer_t<" + Written.getAsString(Policy) + "> *";
  return "const " + A.elementType().getUnqualifiedType().getAsString(Policy) + " *";
}

} // namespace irregfix::inkernel
