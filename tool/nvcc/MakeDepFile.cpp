#include "MakeDepFile.h"

#include "llvm/ADT/STLExtras.h"

namespace irregfix::nvcc {

namespace {

// A path as a prerequisite: blanks and `#` escaped with a backslash, `$` doubled.
std::string asPrerequisite(llvm::StringRef Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ' || C == '\t' || C == '#')
      Out += '\\';
    else if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

void replaceAll(std::string &Text, llvm::StringRef From, llvm::StringRef To) {
  if (From.empty())
    return;
  for (size_t At = Text.find(From); At != std::string::npos; At = Text.find(From, At + To.size()))
    Text.replace(At, From.size(), To.str());
}

} // namespace

std::vector<std::string> readPrerequisites(llvm::StringRef Text) {
  std::vector<std::string> Words;
  std::string Word;
  bool Target = true; // the words before the first ':' name the targets
  auto EndWord = [&] {
    if (Word.empty())
      return;
    if (Target && Word.back() == ':') {
      Target = false;
    } else if (!Target) {
      Words.push_back(Word);
    }
    Word.clear();
  };
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    char Next = I + 1 < Text.size() ? Text[I + 1] : '\0';
    if (C == '\\' && (Next == '\n' || (Next == '\r' && I + 2 < Text.size() && Text[I + 2] == '\n'))) {
      EndWord(); // a continued line
      I += Next == '\r' ? 2 : 1;
    } else if (C == '\\' && (Next == ' ' || Next == '\t' || Next == '#')) {
      Word += Next;
      ++I;
    } else if (C == '$' && Next == '$') {
      Word += '$';
      ++I;
    } else if (C == '\n') {
      EndWord();
      if (!Target)
        break; // the end of the first rule
    } else if (C == ' ' || C == '\t' || C == '\r') {
      EndWord();
    } else if (C == ':' && Target && (Next == ' ' || Next == '\t' || Next == '\n' || Next == '\0')) {
      Word += C; // `a.o:` ends the targets ("c:\x" on Windows is not one)
      EndWord();
      Target = false;
    } else {
      Word += C;
    }
  }
  EndWord();
  return Words;
}

std::string mendDepFile(llvm::StringRef Text, llvm::StringRef Copy, llvm::StringRef Original,
                        llvm::ArrayRef<std::string> Extra) {
  std::string Out = Text.str();
  replaceAll(Out, asPrerequisite(Copy), asPrerequisite(Original));
  replaceAll(Out, Copy, Original);
  std::vector<std::string> Have = readPrerequisites(Out);
  std::string Added;
  for (const std::string &E : Extra)
    if (!llvm::is_contained(Have, E))
      Added += " \\\n  " + asPrerequisite(E);
  if (Added.empty())
    return Out;
  // The first rule ends at the first newline that no backslash continues.
  size_t End = 0;
  for (; End < Out.size(); ++End)
    if (Out[End] == '\n' && (End == 0 || Out[End - 1] != '\\'))
      break;
  size_t Before = End;
  if (Before > 0 && Out[Before - 1] == '\r')
    --Before;
  Out.insert(Before, Added);
  return Out;
}

} // namespace irregfix::nvcc
