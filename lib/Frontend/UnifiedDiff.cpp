#include "Frontend/UnifiedDiff.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <vector>

namespace irregfix {

namespace {

std::vector<llvm::StringRef> lines(llvm::StringRef Text) {
  std::vector<llvm::StringRef> Out;
  while (!Text.empty()) {
    size_t NL = Text.find('\n');
    Out.push_back(Text.substr(0, NL == llvm::StringRef::npos ? Text.size() : NL + 1));
    Text = NL == llvm::StringRef::npos ? llvm::StringRef() : Text.substr(NL + 1);
  }
  return Out;
}

enum Op : char { Keep = ' ', Del = '-', Add = '+' };

// Myers' O(ND) shortest edit script, as a list of operations.
std::vector<Op> editScript(const std::vector<llvm::StringRef> &A, const std::vector<llvm::StringRef> &B) {
  const int N = A.size(), M = B.size(), Max = N + M, Off = Max + 1;
  std::vector<int> V(2 * Max + 3, 0);
  std::vector<std::vector<int>> Trace;
  for (int D = 0; D <= Max; ++D) {
    Trace.push_back(V);
    for (int K = -D; K <= D; K += 2) {
      int X = (K == -D || (K != D && V[Off + K - 1] <= V[Off + K + 1])) ? V[Off + K + 1]
                                                                        : V[Off + K - 1] + 1;
      int Y = X - K;
      while (X < N && Y < M && A[X] == B[Y])
        ++X, ++Y;
      V[Off + K] = X;
      if (X >= N && Y >= M) {
        // Walk the trace back to recover the script.
        std::vector<Op> Script;
        int CX = N, CY = M;
        for (int DD = D; DD > 0; --DD) {
          const std::vector<int> &PV = Trace[DD];
          int CK = CX - CY;
          int PK = (CK == -DD || (CK != DD && PV[Off + CK - 1] <= PV[Off + CK + 1])) ? CK + 1 : CK - 1;
          int PX = PV[Off + PK], PY = PX - PK;
          while (CX > PX && CY > PY)
            Script.push_back(Keep), --CX, --CY;
          Script.push_back(CX == PX ? Add : Del);
          CX = PX, CY = PY;
        }
        while (CX > 0 && CY > 0)
          Script.push_back(Keep), --CX, --CY;
        std::reverse(Script.begin(), Script.end());
        return Script;
      }
    }
  }
  return {};
}

} // namespace

std::string unifiedDiff(llvm::StringRef Before, llvm::StringRef After, llvm::StringRef OldName,
                        llvm::StringRef NewName, unsigned Context) {
  if (Before == After)
    return "";
  std::vector<llvm::StringRef> A = lines(Before), B = lines(After);
  std::vector<Op> Script = editScript(A, B);

  std::string Out = "--- " + OldName.str() + "\n+++ " + NewName.str() + "\n";
  const int C = Context, S = Script.size();
  // Old/new line numbers before each script position.
  std::vector<int> AI(S + 1), BI(S + 1);
  for (int I = 0; I < S; ++I) {
    AI[I + 1] = AI[I] + (Script[I] != Add);
    BI[I + 1] = BI[I] + (Script[I] != Del);
  }
  int I = 0;
  while (I < S) {
    if (Script[I] == Keep) {
      ++I;
      continue;
    }
    // A hunk: from C lines before this change to C lines after the last change
    // that is within 2*C lines of the previous one.
    int Begin = std::max(0, I - C), End = I;
    while (End < S) {
      int Next = End;
      while (Next < S && Script[Next] != Keep)
        ++Next;
      int Gap = Next;
      while (Gap < S && Script[Gap] == Keep)
        ++Gap;
      if (Gap < S && Gap - Next <= 2 * C) {
        End = Gap;
        continue;
      }
      End = std::min(S, Next + C);
      break;
    }
    int OldLen = AI[End] - AI[Begin], NewLen = BI[End] - BI[Begin];
    Out += "@@ -" + std::to_string(AI[Begin] + (OldLen ? 1 : 0)) + "," + std::to_string(OldLen) +
           " +" + std::to_string(BI[Begin] + (NewLen ? 1 : 0)) + "," + std::to_string(NewLen) + " @@\n";
    for (int J = Begin; J < End; ++J) {
      llvm::StringRef L = Script[J] == Add ? B[BI[J]] : A[AI[J]];
      Out += char(Script[J]);
      Out += L.str();
      if (!L.ends_with("\n"))
        Out += "\n\\ No newline at end of file\n";
    }
    I = End;
  }
  return Out;
}

} // namespace irregfix
