// Host cost of what the tool puts around a call of code it cannot see
// (irregfix::UnseenCall: every copy dropped before and after the call) and at
// the top of a function such code may call (irregfix::EntryGuard), while the
// cache holds no copy: the case of a host loop that calls a function of
// another file millions of times before the program's first launch. The
// target: a few nanoseconds a call. No GPU needed (nothing is cached, so the
// runtime asks CUDA nothing). Minimum over batches of the time per call, in
// nanoseconds, beside the bare call's: as programs run (the calls counted by
// cause), then under IRREGFIX_STATS=1 (by program point too; the report
// printed at exit names the points).
//   irregfix_unseen_call_bench [--calls N] [--batches B] [--max-ns NS]
// With --max-ns, exits 1 when a bracket or an entry adds more than NS a call
// as programs run.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// What the bracketed call calls: a random-number step kept out of line, as a
// function of another file is.
__attribute__((noinline)) unsigned step(unsigned *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state;
}

// A function of a rewritten file that reaches a launch: the tool guards its entry.
__attribute__((noinline)) unsigned guarded_step(unsigned *state) {
  irregfix::EntryGuard entry("unseen_call_bench.cpp:guarded_step");
  return step(state);
}

template <class F> double min_ns(F f, long calls, int batches) {
  double best = 1e30;
  for (int b = 0; b < batches; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    f(calls);
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(calls));
  }
  return best;
}

} // namespace

int main(int argc, char **argv) {
  long calls = 2000000;
  int batches = 7;
  double max_ns = -1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--calls"))
      calls = std::atol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--batches"))
      batches = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--max-ns"))
      max_ns = std::atof(argv[i + 1]);
  }
  unsetenv("IRREGFIX_STATS");
  irregfix::testing::reset();
  volatile unsigned sink = 0;
  unsigned state = 1;
  const auto bare = [&](long n) {
    for (long i = 0; i < n; ++i)
      sink = sink + step(&state);
  };
  const auto bracketed = [&](long n) {
    for (long i = 0; i < n; ++i)
      sink = sink + (irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "unseen_call_bench.cpp:loop"), step(&state));
  };
  const auto entered = [&](long n) {
    for (long i = 0; i < n; ++i)
      sink = sink + guarded_step(&state); // each call enters from unseen code (this loop)
  };
  const long long expected = 3LL * calls * batches; // two a bracket, one an entry
  bool ok = true;
  for (const bool stats : {false, true}) {
    if (stats) {
      setenv("IRREGFIX_STATS", "1", 1);
      irregfix::testing::reset();
    }
    const double b = min_ns(bare, calls, batches);
    const double u = min_ns(bracketed, calls, batches);
    const double e = min_ns(entered, calls, batches);
    const irregfix::testing::InvalidationCounters c = irregfix::testing::invalidation_counters();
    std::printf("%s\n", stats ? "IRREGFIX_STATS=1 (by program point):" : "as programs run (by cause):");
    std::printf("  bare call:               %6.1f ns\n", b);
    std::printf("  bracketed (UnseenCall):  %6.1f ns  (+%.1f)\n", u, u - b);
    std::printf("  entered (EntryGuard):    %6.1f ns  (+%.1f)\n", e, e - b);
    std::printf("  irregfix_invalidate_all calls counted: %lld of %lld, %lld copies turned stale\n", c.all, expected,
                c.all_stale);
    if (c.all != expected) {
      std::fprintf(stderr, "irregfix_unseen_call_bench: the calls were not all counted\n");
      ok = false;
    }
    if (!stats && max_ns >= 0 && (u - b > max_ns || e - b > max_ns)) {
      std::fprintf(stderr, "irregfix_unseen_call_bench: over %.1f ns a call\n", max_ns);
      ok = false;
    }
  }
  return ok ? 0 : 1;
}
