#include "Transform/InKernel/LaunchRewriter.h"
#include "Transform/Launcher.h"
#include "Transform/Hoisted/Naming.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/Lanes/Naming.h"
#include "Transform/Indexed/IndexKernels.h"
#include "Analysis/WriteSet.h"
#include "Transform/LaunchSpelling.h"
#include "Transform/SourceText.h"
#include "Transform/ThreadCount.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace irregfix::inkernel {

std::string templateHeader(const KernelInfo &Info, ASTContext &Ctx) {
  const FunctionTemplateDecl *FT = sourceDecl(Info)->getDescribedFunctionTemplate();
  if (!FT)
    return "";
  return sourceText(FT->getTemplateParameters()->getSourceRange(), Ctx.getSourceManager(), Ctx.getLangOpts()) + "\n";
}

std::string templateArguments(const KernelInfo &Info) {
  const FunctionTemplateDecl *FT = sourceDecl(Info)->getDescribedFunctionTemplate();
  if (!FT)
    return "";
  std::string Out = "<";
  const TemplateParameterList *TPL = FT->getTemplateParameters();
  for (unsigned I = 0; I < TPL->size(); ++I) {
    const NamedDecl *P = TPL->getParam(I);
    Out += (I ? ", " : "") + P->getNameAsString() + (P->isParameterPack() ? "..." : "");
  }
  return Out + ">";
}

std::string launcherSignature(const KernelInfo &Info, ASTContext &Ctx) {
  const FunctionDecl *K = sourceDecl(Info);
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << templateHeader(Info, Ctx) << "static void " << launcherName(K)
     << "(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, "
        "cudaStream_t __irregfix_stream";
  for (unsigned I = 0; I < K->getNumParams(); ++I) {
    const ParmVarDecl *P = K->getParamDecl(I);
    OS << ", ";
    P->getType().print(OS, Policy, paramName(P, I));
  }
  OS << ")";
  return Out;
}

namespace {

// `::ns::inner::` for a kernel in namespaces (anonymous ones are reached
// without naming them, inline ones through their parent).
std::string namespaceQualifier(const FunctionDecl *K) {
  std::string Out;
  for (const DeclContext *DC = K->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && !NS->isAnonymousNamespace() && !NS->isInline())
      Out = NS->getNameAsString() + "::" + Out;
  return "::" + Out;
}

// The table of a split copy's pieces (irregfix::FieldPiece): each field's
// offset in the element and in its piece, and its size.
std::string fieldPieceTable(const KernelInfo &Info, unsigned Site, const SiteArray &A, ASTContext &Ctx) {
  const FieldSplit &F = A.Fields;
  const std::string Element =
      A.Array.elementType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
  std::string Out = "static const irregfix::FieldPiece " + fieldPiecesName(Info.Kernel, Site, A.Array) + "[" +
                    std::to_string(F.Pieces.size()) + "] = {";
  for (unsigned P = 0; P < F.Pieces.size(); ++P) {
    const std::string Piece = pieceTypeName(Info.Kernel, Site, A.Array, P);
    Out += std::string(P ? "," : "") + "\n    {sizeof(" + Piece + "), " + std::to_string(F.Pieces[P].Fields.size()) +
           ", {";
    for (unsigned J = 0; J < F.Pieces[P].Fields.size(); ++J) {
      const PieceField &PF = F.Pieces[P].Fields[J];
      const std::string Name = PF.Field->getNameAsString();
      Out += std::string(J ? "," : "") + "\n      {__builtin_offsetof(" + Element + ", " + Name +
             "), __builtin_offsetof(" + Piece + ", " + Name + "), " + std::to_string(PF.Size) + "}";
    }
    Out += "}}";
  }
  return Out + "};\n";
}

} // namespace

std::string siteId(SourceLocation Loc, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  return llvm::sys::path::filename(P.getFilename()).str() + ":" + std::to_string(P.getLine()) +
         ":" + std::to_string(P.getColumn());
}

std::string kernelQualifier(const FunctionDecl *K) {
  const std::string Names[] = {K->getNameAsString(), transformedKernelName(K), hoisted::hoistedKernelName(K),
                               lanes::lanesKernelName(K)};
  for (const ParmVarDecl *P : K->parameters())
    if (llvm::is_contained(Names, P->getName()))
      return namespaceQualifier(K);
  return "";
}

std::string launcherDeclaration(const KernelInfo &Info, ASTContext &Ctx) {
  return launcherSignature(Info, Ctx) + ";";
}

namespace {

// How the launcher names each kernel array: the arrays inside a struct a
// pointer parameter points to by locals declared once at its top
// (`__irregfix_tab_weight`), the others as launchSpelling does.
class HostNames {
public:
  HostNames(const KernelInfo &Info, Launcher &L, const ASTContext &Ctx) : Ctx(Ctx) {
    auto Note = [&](const ArrayRef &A) {
      if (!A.isPointeeMember() || Locals.count(A))
        return;
      const std::string Name = "__irregfix_" + A.identifier();
      L.Locals.push_back("const auto *const " + Name + " = " + launchSpelling(A, Ctx) + ";");
      Locals.emplace(A, Name);
    };
    for (const Site &S : Info.Sites) {
      if (!S.transformable())
        continue;
      if (S.Pattern != kPatternIndexed) { // an indexed site's step function names its own
        for (const ArrayRef &A : S.indexArrays())
          Note(A);
        for (const SiteArray *A : S.remappedArrays())
          Note(A->Array);
      }
      for (const auto &[Written, Read] : S.AliasChecks) {
        Note(Written);
        Note(Read);
      }
      for (const auto &Check : S.SymbolAliasChecks)
        Note(Check.second);
      if (S.Renumbered)
        for (const Site::RenumberedGather::Gathered &X : S.Renumbered->Arrays)
          Note(X.Array);
    }
    for (const auto &[Written, Read] : Info.OrderAliasChecks) {
      Note(Written);
      Note(Read);
    }
  }
  std::string operator()(const ArrayRef &A) const {
    auto It = Locals.find(A);
    return It != Locals.end() ? It->second : launchSpelling(A, Ctx);
  }

private:
  const ASTContext &Ctx;
  std::map<ArrayRef, std::string> Locals;
};

// Each (written, read) pair the launch checks apart.
void addDisjoint(Launcher &L, const std::string &Site, const std::vector<std::pair<ArrayRef, ArrayRef>> &Checks,
                 const HostNames &Host) {
  for (auto &[Written, Read] : Checks)
    L.Conditions.push_back("irregfix::disjoint(" + Site + ", " + Host(Written) + ", " + Host(Read) + ")");
}

// The steps of transformable site I: its locals, the runtime's checks and the
// call that prepares its copies, and what the transformed kernel is passed.
void addSite(Launcher &L, const KernelInfo &Info, unsigned I, const HostNames &Host, ASTContext &Ctx) {
  const Site &S = Info.Sites[I];
  const FunctionDecl *K = Info.Kernel;
  auto Text = [&](const Expr *E) { return sourceText(E->getSourceRange(), Ctx.getSourceManager(), Ctx.getLangOpts()); };
  const std::string V = viewName(I), Site = siteInfoName(K, I);
  auto Arrays = S.remappedArrays();
  // One copy an array, or one a piece of a split array.
  size_t Copies = 0;
  for (const SiteArray *A : Arrays)
    Copies += A->Fields.split() ? A->Fields.Pieces.size() : 1;
  const std::string N = std::to_string(Arrays.size());
  L.Locals.push_back("irregfix::View " + V + ";");
  L.Locals.push_back("const void *" + V + "_out[" + std::to_string(Copies) + "];");
  // Where the runtime reads a kernel array from: the array, or where a called
  // function's view of it starts (`(P + (e))`).
  auto Pointer = [&](const ArrayRef &A) {
    if (S.Callee)
      if (auto It = S.Callee->KernelOffsets.find(A); It != S.Callee->KernelOffsets.end()) {
        std::string P = "(" + Host(A);
        for (const Expr *E : It->second)
          P += " + (" + Text(E) + ")";
        return P + ")";
      }
    return Host(A);
  };
  std::string Sources, Sizes;
  for (size_t J = 0; J < Arrays.size(); ++J) {
    std::string A = Host(Arrays[J]->Array);
    Sources += (J ? ", " : "") + Pointer(Arrays[J]->Array);
    Sizes += (J ? ", " : "") + std::string("sizeof(*") + A + ")";
  }
  if (isRangePattern(S.Pattern)) {
    L.Locals.push_back("const void *const " + V + "_src[" + N + "] = {" + Sources + "};");
    L.Locals.push_back("const size_t " + V + "_size[" + N + "] = {" + Sizes + "};");
  }
  addDisjoint(L, Site, S.AliasChecks, Host);
  for (auto &[Symbol, Read] : S.SymbolAliasChecks)
    L.Conditions.push_back("irregfix::disjoint_symbol(" + Site + ", &" + symbolSpelling(Symbol) + ", " +
                           Host(Read) + ")");
  auto Index = [&](const ArrayRef &P) { return Pointer(P) + ", irregfix::index_kind(" + Host(P) + ")"; };
  const std::string NExpr = activeThreadsText(S, Ctx);
  const std::string Tail = "&" + V + ", " + V + "_out, __irregfix_stream)";
  // A gather or neighbour-list site's one array, split into field pieces.
  std::string Fields, Pieces;
  if (Arrays.size() == 1 && Arrays[0]->Fields.split()) {
    Fields = "_fields";
    Pieces = ", " + std::to_string(Arrays[0]->Fields.Pieces.size()) + ", " + fieldPiecesName(K, I, Arrays[0]->Array);
  }
  switch (S.Pattern) {
  case kPatternRange:
    L.Conditions.push_back("irregfix::prepare_range(" + Site + ", " + Index(S.Offsets) + ", " + NExpr + ", " + N +
                           ", " + V + "_src, " + V + "_size, " + Tail);
    if (S.Renumbered)
      for (size_t G = 0; G < S.Renumbered->Arrays.size(); ++G) {
        const ArrayRef &A = S.Renumbered->Arrays[G].Array;
        const std::string X = Host(A), Copy = renumberedName(I, A);
        L.Locals.push_back("const void *" + Copy + " = nullptr;");
        L.Conditions.push_back("irregfix::prepare_renumbered(" + Site + ", " + std::to_string(G) + ", " + X +
                               ", sizeof(*" + X + "), &" + Copy + ", __irregfix_stream)");
      }
    break;
  case kPatternRange2:
    L.Conditions.push_back("irregfix::prepare_range2(" + Site + ", " + Index(S.Offsets) + ", " + Index(S.RowMap) +
                           ", " + NExpr + ", " + N + ", " + V + "_src, " + V + "_size, " + Tail);
    break;
  case kPatternGather:
    L.Conditions.push_back("irregfix::prepare_gather" + Fields + "(" + Site + ", " + Index(S.Offsets) + ", " + NExpr +
                           ", " + Sources + ", " + Sizes + Pieces + ", " + Tail);
    break;
  case kPatternGather2:
    L.Conditions.push_back("irregfix::prepare_gather2(" + Site + ", " + Index(S.Offsets) + ", " + Index(S.RowMap) +
                           ", " + NExpr + ", " + Sources + ", " + Sizes + ", " + Tail);
    break;
  case kPatternIndexed:
    L.Conditions.push_back(indexed::prepareCall(Info, I, argumentList(K)));
    break;
  case kPatternNeighbors: {
    std::string Stride = "(long long)(" + Text(S.NeighborStride) + ")";
    std::string Strides = S.NeighborRowMajor ? "1, " + Stride : Stride + ", 1";
    std::string Bound = S.NeighborBound ? "(long long)(" + Text(S.NeighborBound) + ")" : "0";
    std::string Counts = S.NeighborCounts ? Index(S.NeighborCounts) : "nullptr, irregfix::kIndexI32";
    L.Conditions.push_back("irregfix::prepare_neighbors" + Fields + "(" + Site + ", " + Index(S.Offsets) + ", " +
                           Strides + ", " + Bound + ", " + Counts + ", " + NExpr + ", " + Sources + ", " + Sizes +
                           Pieces + ", " + Tail);
    break;
  }
  case kPatternScatter: // updates and ordered launches are no Site's: their launchers are their own
  case kPatternOrder:
    break;
  }
  std::vector<std::string> &Args = L.Transformed.Args;
  Args.push_back(V);
  for (size_t J = 0, Copy = 0; J < Arrays.size(); ++J) {
    if (!Arrays[J]->Fields.split()) {
      Args.push_back("static_cast<" + remappedPointerType(Info, Arrays[J]->Array, Ctx) + ">(" + V + "_out[" +
                     std::to_string(Copy++) + "])");
      continue;
    }
    for (unsigned P = 0; P < Arrays[J]->Fields.Pieces.size(); ++P)
      Args.push_back("static_cast<const " + pieceTypeName(K, I, Arrays[J]->Array, P) + " *>(" + V + "_out[" +
                     std::to_string(Copy++) + "])");
  }
  if (S.Renumbered)
    for (const Site::RenumberedGather::Gathered &X : S.Renumbered->Arrays)
      Args.push_back("static_cast<" + remappedPointerType(Info, X.Array, Ctx) + ">(" + renumberedName(I, X.Array) +
                     ")");
}

// The records of the kernel's transformable sites, or of the kernel itself
// for an ordered launch. Shared: the shareable site (sharing layout) also
// names the transformed kernel, whose shared memory the runtime sizes.
std::vector<SiteRecord> siteRecords(const KernelInfo &Info, ASTContext &Ctx, const std::vector<std::string> &Flags,
                                    bool Shared) {
  const FunctionDecl *K = Info.Kernel;
  std::vector<SiteRecord> Out;
  for (unsigned I = 0; I < Info.Sites.size(); ++I) {
    const Site &S = Info.Sites[I];
    if (!S.transformable())
      continue;
    SiteRecord R(siteInfoName(K, I), siteId(S.Loc, Ctx), K->getNameAsString(), S.Pattern, Flags);
    if (Shared && Info.Share.SiteIndex == I) {
      R.Flags.push_back("irregfix::kSiteShareable");
      R.Handle = "(const void *)" + transformedKernelName(K);
    }
    // The sources as the runtime orders them, for its messages.
    std::string Names;
    for (const SiteArray *A : S.remappedArrays())
      Names += (Names.empty() ? "" : ",") + A->Array.spelling();
    for (const ArrayRef &Index : S.indexArrays())
      Names += "," + Index.spelling();
    R.Sources = Names;
    if (S.Renumbered)
      R.RenumberedThrough = S.Renumbered->Through;
    Out.push_back(std::move(R));
  }
  // A kernel without a site, run in a locality order (OrderOnly): its site is the kernel.
  if (Info.OrderOnly)
    Out.emplace_back(siteInfoName(K, 0), siteId(K->getLocation(), Ctx), K->getNameAsString(), kPatternOrder, Flags);
  return Out;
}

// What the launcher calls: the tables of copies split into field pieces, and
// the index kernels and step functions of indexed sites.
std::string definitions(const KernelInfo &Info, ASTContext &Ctx) {
  std::string Out;
  for (unsigned I = 0; I < Info.Sites.size(); ++I)
    if (Info.Sites[I].transformable())
      for (const SiteArray *A : Info.Sites[I].remappedArrays())
        if (A->Fields.split())
          Out += fieldPieceTable(Info, I, *A, Ctx);
  for (unsigned I = 0; I < Info.Sites.size(); ++I)
    if (Info.Sites[I].transformable() && Info.Sites[I].Pattern == kPatternIndexed) {
      llvm::Expected<std::string> D = indexed::definitions(Info, I, Ctx);
      if (D)
        Out += *D;
      else // the decision step refused what cannot be written: not reached
        Out += "#error \"irregfix: " + llvm::toString(D.takeError()) + "\"\n";
    }
  return Out;
}

// The transformed branch: one launch, or one a chunk while the runtime
// overlaps the next chunk's remap with it.
void addBranch(Launcher &L, bool Chunked) {
  if (!Chunked) {
    L.Branch.push_back({L.Transformed.text()});
    return;
  }
  L.Locals.push_back("int __irregfix_chunks = 0;");
  L.Conditions.push_back("irregfix::start_chunks(" + L.Site + ", __irregfix_stream, &__irregfix_chunks)");
  KernelLaunch Chunk = L.Transformed;
  Chunk.Grid = "__irregfix_chunk.grid";
  L.Branch.push_back({"for (int __irregfix_c = 0; __irregfix_c < __irregfix_chunks; ++__irregfix_c)",
                      {{"const irregfix::Chunk __irregfix_chunk = irregfix::launch_chunk(" + L.Site +
                        ", __irregfix_c, __irregfix_grid, __irregfix_stream);"},
                       {Chunk.text()}}});
}

} // namespace

Launcher launcher(const KernelInfo &Info, ASTContext &Ctx, bool Whole) {
  const FunctionDecl *K = Info.Kernel;
  Launcher L;
  // A chunkable kernel runs chunk by chunk: one chunk, the whole grid, unless
  // the launch remaps and the runtime overlaps the remap with the kernel.
  const bool Chunked = Info.Chunks.Chunkable && !Whole;
  // A launch for another strategy stages nothing in shared memory.
  const bool Shared = Info.Share.Shareable && !Whole;
  std::vector<std::string> Flags;
  if (Info.Perm.Permutable)
    Flags.push_back("irregfix::kSitePermutable");
  if (Chunked)
    Flags.push_back("irregfix::kSiteChunkable");
  L.Sites = siteRecords(Info, Ctx, Flags, Shared);
  L.Definitions = definitions(Info, Ctx);
  L.Comment = "// irregfix: launches " + transformedKernelName(K) +
              (Info.OrderOnly ? " in a locality order" : " on remapped copies") +
              ", or the original kernel when the runtime declines or times it faster.";
  L.Signature = launcherSignature(Info, Ctx);
  // The launch is named by its first site: the runtime keeps the launcher's selector there.
  L.Site = L.Sites.front().Name;
  L.Conditions.push_back("irregfix::begin_launch(" + L.Site + ", __irregfix_stream, __irregfix_grid, __irregfix_block" +
                         (Shared ? ", __irregfix_shmem)" : ")"));
  if (Info.RequiredBlockX)
    L.Conditions.push_back("irregfix::block_size_is(" + L.Site + ", __irregfix_block, " +
                           std::to_string(Info.RequiredBlockX) + ")");
  const std::string Qualifier = kernelQualifier(K);
  L.Transformed.Kernel = Qualifier + transformedKernelName(K) + templateArguments(Info);
  L.Transformed.Args.push_back(argumentList(K));
  const HostNames Host(Info, L, Ctx);
  for (unsigned I = 0; I < Info.Sites.size(); ++I)
    if (Info.Sites[I].transformable())
      addSite(L, Info, I, Host, Ctx);
  if (Info.OrderOnly) {
    L.Locals.push_back("irregfix::View " + viewName(0) + ";");
    addDisjoint(L, L.Site, Info.OrderAliasChecks, Host);
    L.Conditions.push_back("irregfix::prepare_order(" + L.Site + ", &" + viewName(0) + ", __irregfix_stream)");
    L.Transformed.Args.push_back(viewName(0));
  }
  // The transformed kernel's own: a shareable launch adds the staged copy's bytes.
  if (Shared)
    L.Transformed.Shmem = "__irregfix_shmem + irregfix::shared_bytes(" + viewName(Info.Share.SiteIndex) + ")";
  L.Transformed.BlockOffset = Chunked ? "__irregfix_chunk.block_offset" : Info.Chunks.Chunkable ? "0u" : "";
  addBranch(L, Chunked);
  L.Original.Kernel = Qualifier + K->getNameAsString() + templateArguments(Info);
  L.Original.Args.push_back(argumentList(K));
  return L;
}

llvm::Expected<tooling::Replacement> rewriteLaunch(const CUDAKernelCallExpr *Launch,
                                                   const KernelInfo &Info, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  auto Fail = [](const std::string &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Why);
  };
  CharSourceRange Whole = fileRange(Launch->getSourceRange(), SM, LO);
  if (Whole.isInvalid())
    return Fail("the launch is written through a macro");

  std::vector<std::string> Args;
  const CallExpr *Config = Launch->getConfig();
  static const char *Defaults[] = {"", "", "0", "0"};
  for (unsigned I = 0; I < 4; ++I) {
    const Expr *E = I < Config->getNumArgs() ? Config->getArg(I) : nullptr;
    if (!E || isa<CXXDefaultArgExpr>(E)) {
      if (!*Defaults[I])
        return Fail("the launch configuration is incomplete");
      Args.push_back(Defaults[I]);
      continue;
    }
    std::string T = sourceText(E->getSourceRange(), SM, LO);
    if (T.empty())
      return Fail("the launch configuration is written through a macro");
    Args.push_back(T);
  }
  for (const Expr *E : Launch->arguments()) {
    if (isa<CXXDefaultArgExpr>(E))
      return Fail("the launch relies on a default argument");
    std::string T = sourceText(E->getSourceRange(), SM, LO);
    if (T.empty())
      return Fail("a launch argument is written through a macro");
    Args.push_back(T);
  }
  // `kernel<float><<<...>>>` keeps its explicit template arguments, and
  // `ns::kernel<<<...>>>` its qualifier: the launcher is declared beside the kernel.
  std::string TemplateArgs, Qualifier;
  // `(kernel)<<<...>>>` names the kernel as `kernel<<<...>>>` does.
  const Expr *Callee = Launch->getCallee()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee)) {
    if (DRE->hasExplicitTemplateArgs()) {
      TemplateArgs = sourceText(SourceRange(DRE->getLAngleLoc(), DRE->getRAngleLoc()), SM, LO);
      if (TemplateArgs.empty())
        return Fail("the template arguments are written through a macro");
    }
    if (isa<UsingShadowDecl>(DRE->getFoundDecl())) {
      // Named through a using-declaration, which does not bring the launcher.
      Qualifier = namespaceQualifier(Info.Kernel);
    } else if (NestedNameSpecifierLoc Q = DRE->getQualifierLoc()) {
      Qualifier = sourceText(Q.getSourceRange(), SM, LO);
      if (Qualifier.empty())
        return Fail("the kernel's qualifier is written through a macro");
    }
  } else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee)) {
    // In a host template's text: the name as written, resolved in its instantiations.
    if (ULE->hasExplicitTemplateArgs()) {
      TemplateArgs = sourceText(SourceRange(ULE->getLAngleLoc(), ULE->getRAngleLoc()), SM, LO);
      if (TemplateArgs.empty())
        return Fail("the template arguments are written through a macro");
    }
    if (llvm::any_of(ULE->decls(), [](const NamedDecl *D) { return isa<UsingShadowDecl>(D); })) {
      Qualifier = namespaceQualifier(Info.Kernel);
    } else if (NestedNameSpecifierLoc Q = ULE->getQualifierLoc()) {
      Qualifier = sourceText(Q.getSourceRange(), SM, LO);
      if (Qualifier.empty())
        return Fail("the kernel's qualifier is written through a macro");
    }
  } else if (Launch->isInstantiationDependent()) {
    return Fail("the kernel is named by an expression the tool cannot rewrite");
  }
  std::string Text = Qualifier + launcherName(Info.Kernel) + TemplateArgs + "(";
  for (size_t I = 0; I < Args.size(); ++I)
    Text += (I ? ", " : "") + Args[I];
  Text += ")";
  return tooling::Replacement(SM, Whole, Text, LO);
}

} // namespace irregfix::inkernel
