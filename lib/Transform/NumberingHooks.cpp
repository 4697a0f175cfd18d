#include "Transform/NumberingHooks.h"
#include "Transform/SourceText.h"

#include <set>

using namespace clang;

namespace irregfix {

namespace {

std::string literal(const std::string &S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C == '\n' ? ' ' : C;
  }
  return Out + "\"";
}

std::string table(const KernelNumbering &K, unsigned Id) {
  const std::string N = std::to_string(Id);
  std::string Roles, Sizes;
  for (const NumberingParam &P : K.Pointers) {
    const unsigned Role = K.indifferent() ? P.Role | (P.Written ? 0x80u : 0u) : kRoleOther;
    Roles += (Roles.empty() ? "" : ", ") + std::to_string(Role);
    Sizes += (Sizes.empty() ? "" : ", ") + std::to_string(P.Bytes);
  }
  std::string Out = "static const unsigned char __irregfix_roles_" + N + "[] = {" + Roles + "};\n" +
                    "static const unsigned short __irregfix_sizes_" + N + "[] = {" + Sizes + "};\n";
  Out += "static const irregfix::NumberingKernel __irregfix_numbering_" + N + " = {" +
         literal(K.Kernel->getNameAsString()) + ", " + (K.indifferent() ? "nullptr" : literal(K.NotBecause)) +
         ", __irregfix_roles_" + N + ", __irregfix_sizes_" + N + ", " + std::to_string(K.Graph) + ", " +
         std::to_string(K.GraphCounts) + ", " + std::to_string(K.GraphRows) + ", " + std::to_string(K.Lanes) + ", " +
         (K.ThroughOrder ? "1" : "0") + "};\n";
  return Out;
}

} // namespace

NumberingText numberingText(const FileDomain &D, ASTContext &Ctx) {
  NumberingText Out;
  if (!D.formed())
    return Out;
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  std::map<const KernelNumbering *, unsigned> Ids;
  Out.Tables = "// irregfix: what each kernel does with its pointers, for program-wide renumbering: the runtime\n"
               "// keeps the arrays they index by element number in a locality order while only kernels\n"
               "// indifferent to the numbering use them.\n";
  for (const DomainLaunch &L : D.Launches) {
    if (L.Pointers.empty())
      continue;
    auto [It, New] = Ids.try_emplace(L.Kernel, static_cast<unsigned>(Ids.size()));
    if (New)
      Out.Tables += table(*L.Kernel, It->second);
    std::string Args;
    for (const Expr *P : L.Pointers)
      Args += (Args.empty() ? "" : ", ") + sourceText(P->getSourceRange(), SM, LO);
    std::string Stream = "0";
    if (const auto *Config = L.Call->getConfig(); Config && Config->getNumArgs() >= 4 &&
                                                   !isa<CXXDefaultArgExpr>(Config->getArg(3)))
      Stream = sourceText(Config->getArg(3)->getSourceRange(), SM, LO);
    const std::string Count = L.Count ? "(long long)(" + sourceText(L.Count->getSourceRange(), SM, LO) + ")" : "0";
    Out.Before[L.Call] = "irregfix::numbered_launch(__irregfix_numbering_" + std::to_string(It->second) + ", " +
                         Count + ", " + Stream + ", {" + Args + "}); ";
  }
  for (const HostAccess &A : D.Accesses) {
    std::string Text;
    if (A.All)
      Text = "irregfix_host_access(nullptr); ";
    for (const Expr *P : A.Pointers)
      Text += "irregfix_host_access(" + sourceText(P->getSourceRange(), SM, LO) + "); ";
    Out.Before[A.Call] = Text;
  }
  return Out;
}

} // namespace irregfix
