#include "Frontend/RuntimeInclude.h"
#include "Transform/SourceText.h"

#include "clang/AST/DeclCXX.h"

#include <functional>

using namespace clang;

namespace irregfix {

namespace {

constexpr const char *RuntimeInclude = "#include <irregfix/irregfix.cuh>\n";

// [begin, end) of every declaration at file scope or in a namespace or linkage
// specification (which may hold an #include of another file), per file.
std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> declarationExtents(const RewritableFiles &Files,
                                                                                      ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Nested;
  std::function<void(const DeclContext *)> Collect = [&](const DeclContext *DC) {
    for (const Decl *D : DC->decls()) {
      CharSourceRange R = fileRange(D->getSourceRange(), SM, Ctx.getLangOpts());
      if (R.isValid()) {
        auto [File, Begin] = SM.getDecomposedLoc(R.getBegin());
        Nested[Files.pathOf(File)].push_back({Begin, SM.getFileOffset(R.getEnd())});
      }
      if (isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D))
        Collect(cast<DeclContext>(D));
    }
  };
  Collect(Ctx.getTranslationUnitDecl());
  return Nested;
}

} // namespace

void RuntimeUses::use(const std::string &Path, unsigned Offset) {
  auto [It, New] = FirstUse.try_emplace(Path, Offset);
  It->second = std::min(It->second, Offset);
}

bool RuntimeUses::addIncludes(FileEdits &Edits, ASTContext &Ctx) {
  // Every edit uses the runtime, and so does the #include of a file that changes.
  const IncludeTree &Tree = Edits.tree();
  const std::vector<std::string> Edited = Tree.edited(), Inlined = Tree.inlined();
  for (const std::string &Path : Edited)
    for (const tooling::Replacement &R : Tree.Files.at(Path).Edits)
      use(Path, R.getOffset());
  for (const FileEntered &E : Tree.Entries)
    if (E.Path == Tree.Main || llvm::is_contained(Edited, E.Path))
      for (const Inclusion &I : E.Includes)
        if (I.Entry >= 0 && llvm::is_contained(Inlined, I.Target))
          use(E.Path, I.Begin);

  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Nested = declarationExtents(Edits.files(), Ctx);
  for (auto &[Path, First] : FirstUse) {
    if (Path.empty())
      continue;
    const std::vector<std::pair<unsigned, unsigned>> &Decls = Nested[Path];
    unsigned At = 0;
    for (unsigned End : Edits.files().directiveEnds(Path))
      if (End <= First && llvm::none_of(Decls, [&](auto &N) { return N.first < End && End < N.second; }))
        At = std::max(At, End);
    const std::string &Text = Tree.Files.at(Path).Original;
    const bool NewLine = At > 0 && Text[At - 1] != '\n'; // after a last line without one
    if (!Edits.add(tooling::Replacement(Path, At, 0, (NewLine ? "\n" : "") + std::string(RuntimeInclude))))
      return false;
  }
  return true;
}

} // namespace irregfix
