#include "Transform/InKernel/LaunchRewriter.h"
#include "Transform/Hoisted/Naming.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/Indexed/IndexKernels.h"
#include "Analysis/WriteSet.h"
#include "Transform/SourceText.h"

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
  const std::string Names[] = {K->getNameAsString(), transformedKernelName(K), hoisted::hoistedKernelName(K)};
  for (const ParmVarDecl *P : K->parameters())
    if (llvm::is_contained(Names, P->getName()))
      return namespaceQualifier(K);
  return "";
}

std::string launcherDeclaration(const KernelInfo &Info, ASTContext &Ctx) {
  return launcherSignature(Info, Ctx) + ";";
}

std::string launcherDefinition(const KernelInfo &Info, ASTContext &Ctx, const OtherStrategy *Other) {
  const FunctionDecl *K = Info.Kernel;
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  std::string Out;
  llvm::raw_string_ostream OS(Out);

  // A chunkable kernel runs chunk by chunk: one chunk, the whole grid, unless
  // the launch remaps and the runtime overlaps the remap with the kernel.
  // Another strategy's branch launches it whole (its fallback): offset 0.
  const bool Chunked = Info.Chunks.Chunkable && !Other;
  std::string Flags;
  auto AddFlag = [&](const std::string &F) { Flags += (Flags.empty() ? "" : " | ") + F; };
  if (Info.Perm.Permutable)
    AddFlag("irregfix::kSitePermutable");
  if (Chunked)
    AddFlag("irregfix::kSiteChunkable");
  if (Other && !Other->SiteFlag.empty())
    AddFlag(Other->SiteFlag);
  // The shareable site (sharing layout) also names the transformed kernel,
  // whose shared memory the runtime sizes. Another strategy's launch keeps slots.
  const bool Shared = Info.Share.Shareable && !Other;
  unsigned Index = 0;
  for (const Site &S : Info.Sites) {
    if (S.transformable()) {
      OS << "static const irregfix::SiteInfo " << siteInfoName(K, Index) << " = {\"" << siteId(S.Loc, Ctx) << "\", \""
         << K->getName() << "\", \"" << pattern_name(S.Pattern) << "\"";
      if (Shared && Info.Share.SiteIndex == Index)
        OS << ", " << Flags << (Flags.empty() ? "" : " | ") << "irregfix::kSiteShareable, (const void *)"
           << transformedKernelName(K);
      else
        OS << ", " << (Flags.empty() ? "0" : Flags) << ", nullptr";
      // The sources as the runtime orders them, for its messages.
      std::string Names;
      for (const SiteArray *A : S.remappedArrays())
        Names += (Names.empty() ? "" : ",") + A->Array.spelling();
      for (const ArrayRef &I : S.indexArrays())
        Names += "," + I.spelling();
      OS << ", \"" << Names << "\"";
      if (S.Renumbered)
        OS << ", " << S.Renumbered->Through;
      OS << "};\n";
    }
    ++Index;
  }

  // A kernel without a site, run in a locality order (OrderOnly): its site is the kernel.
  if (Info.OrderOnly)
    OS << "static const irregfix::SiteInfo " << siteInfoName(K, 0) << " = {\"" << siteId(K->getLocation(), Ctx)
       << "\", \"" << K->getName() << "\", \"" << pattern_name(kPatternOrder) << "\", "
       << (Flags.empty() ? "0" : Flags) << ", nullptr};\n";

  // Copies split into field pieces: what each piece holds, for the runtime.
  for (unsigned I = 0; I < Info.Sites.size(); ++I)
    if (Info.Sites[I].transformable())
      for (const SiteArray *A : Info.Sites[I].remappedArrays())
        if (A->Fields.split())
          OS << fieldPieceTable(Info, I, *A, Ctx);

  // Indexed sites: the kernels that compute their indices, and their step functions.
  for (unsigned I = 0; I < Info.Sites.size(); ++I)
    if (Info.Sites[I].transformable() && Info.Sites[I].Pattern == kPatternIndexed) {
      llvm::Expected<std::string> D = indexed::definitions(Info, I, Ctx);
      if (D)
        OS << *D;
      else // validateIndexedSites refused what cannot be written: not reached
        OS << "#error \"irregfix: " << llvm::toString(D.takeError()) << "\"\n";
    }
  OS << "// irregfix: launches " << transformedKernelName(K)
     << (Info.OrderOnly ? " in a locality order" : " on remapped copies")
     << ", or the original kernel when the runtime declines or times it faster.\n";
  OS << launcherSignature(Info, Ctx) << " {\n";
  // The launch is named by its first transformable site: the runtime keeps the
  // launcher's selector there.
  std::string LaunchSite = Info.OrderOnly ? siteInfoName(K, 0) : "";
  for (unsigned I = 0; I < Info.Sites.size() && LaunchSite.empty(); ++I)
    if (Info.Sites[I].transformable())
      LaunchSite = siteInfoName(K, I);
  std::vector<std::string> Conditions{"irregfix::begin_launch(" + LaunchSite +
                                      ", __irregfix_stream, __irregfix_grid, __irregfix_block" +
                                      (Shared ? ", __irregfix_shmem)" : ")")},
      ExtraArgs;
  if (Info.RequiredBlockX)
    Conditions.push_back("irregfix::block_size_is(" + LaunchSite + ", __irregfix_block, " +
                         std::to_string(Info.RequiredBlockX) + ")");
  // Each (written, read) pair the launch checks apart.
  auto Disjoint = [&](const std::string &Site, const std::vector<std::pair<ArrayRef, ArrayRef>> &Checks) {
    for (auto &[Written, Read] : Checks)
      Conditions.push_back("irregfix::disjoint(" + Site + ", " + Written.spelling() + ", " + Read.spelling() + ")");
  };
  Index = 0;
  for (const Site &S : Info.Sites) {
    unsigned I = Index++;
    if (!S.transformable())
      continue;
    std::string V = viewName(I), Site = siteInfoName(K, I);
    auto Arrays = S.remappedArrays();
    // One copy an array, or one a piece of a split array.
    size_t Copies = 0;
    for (const SiteArray *A : Arrays)
      Copies += A->Fields.split() ? A->Fields.Pieces.size() : 1;
    std::string N = std::to_string(Arrays.size());
    OS << "  irregfix::View " << V << ";\n";
    OS << "  const void *" << V << "_out[" << Copies << "];\n";
    std::string Sources, Sizes;
    for (size_t J = 0; J < Arrays.size(); ++J) {
      std::string A = Arrays[J]->Array.spelling();
      Sources += (J ? ", " : "") + A;
      Sizes += (J ? ", " : "") + std::string("sizeof(*") + A + ")";
    }
    if (isRangePattern(S.Pattern)) {
      OS << "  const void *const " << V << "_src[" << N << "] = {" << Sources << "};\n";
      OS << "  const size_t " << V << "_size[" << N << "] = {" << Sizes << "};\n";
    }
    Disjoint(Site, S.AliasChecks);
    for (auto &[Symbol, Read] : S.SymbolAliasChecks)
      Conditions.push_back("irregfix::disjoint_symbol(" + Site + ", &" + symbolSpelling(Symbol) + ", " +
                           Read.spelling() + ")");
    auto Text = [&](const Expr *E) { return sourceText(E->getSourceRange(), SM, LO); };
    auto Index = [](const ArrayRef &P) { return P.spelling() + ", irregfix::index_kind(" + P.spelling() + ")"; };
    // (An indexed site without a guard runs the launch's threads: its step function knows.)
    std::string NExpr = S.ActiveThreads ? "(long long)(" + Text(S.ActiveThreads) + ")" : "";
    std::string Tail = "&" + V + ", " + V + "_out, __irregfix_stream)";
    // A gather or neighbour-list site's one array, split into field pieces.
    std::string Fields, Pieces;
    if (Arrays.size() == 1 && Arrays[0]->Fields.split()) {
      Fields = "_fields";
      Pieces = ", " + std::to_string(Arrays[0]->Fields.Pieces.size()) + ", " + fieldPiecesName(K, I, Arrays[0]->Array);
    }
    switch (S.Pattern) {
    case kPatternRange:
      Conditions.push_back("irregfix::prepare_range(" + Site + ", " + Index(S.Offsets) + ", " + NExpr + ", " + N +
                           ", " + V + "_src, " + V + "_size, " + Tail);
      if (S.Renumbered)
        for (size_t G = 0; G < S.Renumbered->Arrays.size(); ++G) {
          const ArrayRef &A = S.Renumbered->Arrays[G].Array;
          const std::string X = A.spelling(), Copy = renumberedName(I, A);
          OS << "  const void *" << Copy << " = nullptr;\n";
          Conditions.push_back("irregfix::prepare_renumbered(" + Site + ", " + std::to_string(G) + ", " + X +
                               ", sizeof(*" + X + "), &" + Copy + ", __irregfix_stream)");
        }
      break;
    case kPatternRange2:
      Conditions.push_back("irregfix::prepare_range2(" + Site + ", " + Index(S.Offsets) + ", " + Index(S.RowMap) +
                           ", " + NExpr + ", " + N + ", " + V + "_src, " + V + "_size, " + Tail);
      break;
    case kPatternGather:
      Conditions.push_back("irregfix::prepare_gather" + Fields + "(" + Site + ", " + Index(S.Offsets) + ", " + NExpr +
                           ", " + Sources + ", " + Sizes + Pieces + ", " + Tail);
      break;
    case kPatternGather2:
      Conditions.push_back("irregfix::prepare_gather2(" + Site + ", " + Index(S.Offsets) + ", " + Index(S.RowMap) +
                           ", " + NExpr + ", " + Sources + ", " + Sizes + ", " + Tail);
      break;
    case kPatternIndexed:
      Conditions.push_back(indexed::prepareCall(Info, I, argumentList(K)));
      break;
    case kPatternNeighbors: {
      std::string Stride = "(long long)(" + Text(S.NeighborStride) + ")";
      std::string Strides = S.NeighborRowMajor ? "1, " + Stride : Stride + ", 1";
      std::string Bound = S.NeighborBound ? "(long long)(" + Text(S.NeighborBound) + ")" : "0";
      std::string Counts = S.NeighborCounts ? Index(S.NeighborCounts) : "nullptr, irregfix::kIndexI32";
      Conditions.push_back("irregfix::prepare_neighbors" + Fields + "(" + Site + ", " + Index(S.Offsets) + ", " +
                           Strides + ", " + Bound + ", " + Counts + ", " + NExpr + ", " + Sources + ", " + Sizes +
                           Pieces + ", " + Tail);
      break;
    }
    case kPatternScatter: // updates and ordered launches are no Site's: their launchers are their own
    case kPatternOrder:
      break;
    }
    ExtraArgs.push_back(V);
    for (size_t J = 0, Copy = 0; J < Arrays.size(); ++J) {
      if (!Arrays[J]->Fields.split()) {
        ExtraArgs.push_back("static_cast<" + remappedPointerType(Info, Arrays[J]->Array, Ctx) + ">(" + V + "_out[" +
                            std::to_string(Copy++) + "])");
        continue;
      }
      for (unsigned P = 0; P < Arrays[J]->Fields.Pieces.size(); ++P)
        ExtraArgs.push_back("static_cast<const " + pieceTypeName(K, I, Arrays[J]->Array, P) + " *>(" + V + "_out[" +
                            std::to_string(Copy++) + "])");
    }
    if (S.Renumbered)
      for (const Site::RenumberedGather::Gathered &X : S.Renumbered->Arrays)
        ExtraArgs.push_back("static_cast<" + remappedPointerType(Info, X.Array, Ctx) + ">(" +
                            renumberedName(I, X.Array) + ")");
  }

  if (Info.OrderOnly) {
    OS << "  irregfix::View " << viewName(0) << ";\n";
    Disjoint(LaunchSite, Info.OrderAliasChecks);
    Conditions.push_back("irregfix::prepare_order(" + LaunchSite + ", &" + viewName(0) + ", __irregfix_stream)");
    ExtraArgs.push_back(viewName(0));
  }

  std::string Args = argumentList(K);
  std::string Config = "<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>";
  // The transformed kernel's own: a shareable launch adds the staged copy's bytes.
  std::string Shmem = Shared ? "__irregfix_shmem + irregfix::shared_bytes(" + viewName(Info.Share.SiteIndex) + ")"
                             : "__irregfix_shmem";
  std::string AllArgs = Args;
  for (const std::string &E : ExtraArgs)
    AllArgs += (AllArgs.empty() ? "" : ", ") + E;
  std::string OffsetArg = Chunked ? "__irregfix_chunk.block_offset" : Info.Chunks.Chunkable ? "0u" : "";
  std::string KernelArgs = OffsetArg.empty() ? AllArgs : AllArgs + (AllArgs.empty() ? "" : ", ") + OffsetArg;
  if (Chunked) {
    OS << "  int __irregfix_chunks = 0;\n";
    Conditions.push_back("irregfix::start_chunks(" + LaunchSite + ", __irregfix_stream, &__irregfix_chunks)");
  }
  if (Other) {
    OS << Other->Declarations;
    Conditions.push_back(Other->Condition);
  }
  OS << "  if (";
  for (size_t I = 0; I < Conditions.size(); ++I)
    OS << (I ? " &&\n      " : "") << Conditions[I];
  OS << ") {\n";
  const std::string Qualifier = kernelQualifier(K);
  std::string Name = Qualifier + transformedKernelName(K) + templateArguments(Info);
  if (Other) {
    OS << Other->Branch(Config, AllArgs, Name + Config + "(" + KernelArgs + ");");
  } else if (Chunked) {
    OS << "    for (int __irregfix_c = 0; __irregfix_c < __irregfix_chunks; ++__irregfix_c) {\n"
       << "      const irregfix::Chunk __irregfix_chunk = irregfix::launch_chunk(" << LaunchSite
       << ", __irregfix_c, __irregfix_grid, __irregfix_stream);\n"
       << "      " << Name << "<<<__irregfix_chunk.grid, __irregfix_block, " << Shmem << ", __irregfix_stream>>>("
       << KernelArgs << ");\n"
       << "    }\n";
  } else {
    OS << "    " << Name << "<<<__irregfix_grid, __irregfix_block, " << Shmem << ", __irregfix_stream>>>("
       << KernelArgs << ");\n";
  }
  OS << "    irregfix::end_transformed_launch(" << LaunchSite << ", __irregfix_stream);\n";
  OS << "    return;\n  }\n";
  OS << "  " << Qualifier << K->getName() << templateArguments(Info) << Config << "(" << Args << ");\n";
  OS << "  irregfix::end_original_launch(" << LaunchSite << ", __irregfix_stream);\n";
  OS << "}";
  return Out;
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
