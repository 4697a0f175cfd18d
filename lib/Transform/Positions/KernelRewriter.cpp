#include "Transform/Positions/KernelRewriter.h"
#include "Transform/Positions/Naming.h"
#include "Transform/SourceText.h"

using namespace clang;

namespace irregfix::positions {

llvm::Expected<std::string> rewriteKernel(const KernelNumbering &K, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  const FunctionDecl *F = K.Kernel ? K.Kernel->getDefinition() : nullptr;
  auto Fail = [](const std::string &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s", Why.c_str());
  };
  if (!F || F->getNumParams() == 0 || K.ElementReads.empty())
    return Fail("no definition with parameters and element reads");
  const CharSourceRange Whole = fileRange(F->getSourceRange(), SM, LO);
  if (Whole.isInvalid())
    return Fail("its definition is not plain text of one file");
  SnippetEditor Editor(Whole, SM, LO);
  bool Ok = Editor.insertAfterToken(F->getLocation(), variantSuffix()) &&
            Editor.insertAfterToken(F->getParamDecl(F->getNumParams() - 1)->getEndLoc(),
                                    std::string(", const int *__restrict__ ") + positionsParam());
  for (const ArraySubscriptExpr *Read : K.ElementReads) {
    const std::string Index = sourceText(Read->getIdx()->getSourceRange(), SM, LO);
    Ok = Ok && !Index.empty() &&
         Editor.replace(Read->getIdx()->getSourceRange(),
                        std::string("irregfix::element_at(") + positionsParam() + ", " + Index + ")");
  }
  if (!Ok)
    return Fail("an element read or its signature is spelled through a macro");
  llvm::Expected<std::string> Text = Editor.result();
  if (!Text)
    return Text.takeError();
  return "\n\n// irregfix: '" + F->getNameAsString() +
         "' reading each element where the program-wide renumbering keeps it: the same sums, in the same order.\n" +
         *Text;
}

} // namespace irregfix::positions
