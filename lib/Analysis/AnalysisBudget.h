// A deadline on one kernel's analysis, so that a kernel whose analysis would
// run long (a shape no bound of the analyses foresaw) is left as it is instead
// of stalling the build. The decision step opens a scope per kernel; the
// analyses' long loops and recursions call checkAnalysisBudget(), which throws
// AnalysisBudgetExceeded past the deadline. Only the analyses' own code throws
// and only the decision step catches: nothing of the kernel's half-made result
// is kept.
//
// The scope is found through a thread-local rather than passed down because it
// is asked from deep inside every analysis (index forms, locals' values, write
// sets) and is the analyses' business with the clock alone, never a fact.
#pragma once

#include <chrono>

namespace irregfix {

struct AnalysisBudgetExceeded {};

class AnalysisBudgetScope {
public:
  using Clock = std::chrono::steady_clock;
  // No deadline when Seconds is negative.
  explicit AnalysisBudgetScope(double Seconds);
  ~AnalysisBudgetScope();
  AnalysisBudgetScope(const AnalysisBudgetScope &) = delete;
  AnalysisBudgetScope &operator=(const AnalysisBudgetScope &) = delete;

  // Whether the deadline has passed (the clock read on every call).
  bool expired() const;

private:
  friend void checkAnalysisBudget();
  Clock::time_point Deadline;
  bool Limited;
  unsigned Calls = 0;
  AnalysisBudgetScope *Outer;
};

// Throws AnalysisBudgetExceeded when the innermost scope's deadline has passed;
// nothing outside a scope. Cheap: the clock is read on one call in 64.
void checkAnalysisBudget();

} // namespace irregfix
