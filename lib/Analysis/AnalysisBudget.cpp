#include "Analysis/AnalysisBudget.h"

namespace irregfix {

namespace {
thread_local AnalysisBudgetScope *Innermost = nullptr;
} // namespace

AnalysisBudgetScope::AnalysisBudgetScope(double Seconds)
    : Deadline(Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                                  Seconds < 0 ? 0.0 : Seconds))),
      Limited(Seconds >= 0), Outer(Innermost) {
  Innermost = this;
}

AnalysisBudgetScope::~AnalysisBudgetScope() { Innermost = Outer; }

bool AnalysisBudgetScope::expired() const { return Limited && Clock::now() >= Deadline; }

void checkAnalysisBudget() {
  AnalysisBudgetScope *S = Innermost;
  if (!S || !S->Limited || (S->Calls++ & 63) != 0)
    return;
  if (S->expired())
    throw AnalysisBudgetExceeded();
}

} // namespace irregfix
