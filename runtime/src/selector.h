// irregfix runtime: the online choice, per launch site, between the original
// kernel and the transformed one in each candidate layout (G-Streamline's
// online profiling, with the remap amortised over the launches that reuse a
// copy). Plain C++: the runtime feeds it event timings; test/unit/runtime
// drives it with synthetic ones.
#pragma once

#include <string>

namespace irregfix {
namespace detail {

class Selector {
public:
  enum Run { kRunTransformed, kRunOriginal };
  struct Decision {
    Run run = kRunTransformed;
    bool timed = false; // time this launch with events and report it back
    int candidate = 0;  // kRunTransformed: the candidate layout to run
    // Profiling ended with this decision: the copies of the candidates other
    // than candidate() will not be read again (the runtime frees them).
    bool settled = false;
  };

  static constexpr int kProbes = 3;             // timed launches of each variant first
  static constexpr int kWindow = 8;             // latest samples kept per measure
  static constexpr long long kWatchPeriod = 64; // a timed launch this often afterwards
  static constexpr double kMinGain = 0.03;      // the transformed kernel must save 3%
  static constexpr long long kReuseHalfLife = 256; // launches before the reuse counts halve
  static constexpr int kMaxCandidates = 3;

  // The next launch. copy_valid: every copy the launch reads is cached and
  // valid (nothing to remap); data_changed: a source of the copies was written
  // (or there was no copy) since the previous launch.
  Decision decide(bool copy_valid, bool data_changed);

  // The candidate layouts (labels: Layout values), candidate 0 being the one
  // the launches so far ran; taken while profiling, once (the first proposal
  // holds). Without a call the selector has one candidate, labelled 0.
  void set_candidates(const int *labels, int count);
  // A candidate that could not run (its copy could not be built): no longer
  // probed nor chosen. Candidate 0 is kept (it is retried, as before).
  void drop(int candidate);

  // Timings (ms) of launches decide() asked to time; cancel() when a timed
  // launch did not run the variant asked (the runtime declined, an error).
  void add_original(double ms);
  void add_transformed(double kernel_ms, int candidate = 0);
  void add_remap(double ms, int candidate = 0);
  void cancel(Run run, int candidate = 0);

  // Estimates (median of the window, ms; negative without a sample) of the
  // candidate in use (the chosen one; candidate 0 while profiling) or of
  // candidate c, the launches a copy serves on average, and why the latest decision.
  double original_ms() const { return original_.median(); }
  double transformed_ms() const { return transformed_ms(chosen_); }
  double transformed_ms(int c) const { return cands_[c].kernel.median(); }
  double remap_ms() const { return remap_ms(chosen_); }
  double remap_ms(int c) const { return cands_[c].remap.median(); }
  int transformed_samples(int c) const { return cands_[c].kernel.count; }
  double reuse() const;
  bool profiling() const { return profiling_; }
  int candidates() const { return count_; }
  int label(int c) const { return cands_[c].label; }
  bool dropped(int c) const { return cands_[c].dropped; }
  int chosen() const { return chosen_; }
  const std::string &why() const { return why_; }

  // The report's line: why, then the medians of the original and of each
  // candidate (named by name(label)), the chosen one marked, and the reuse.
  std::string summary(const char *(*name)(int label)) const;

private:
  struct Window {
    double v[kWindow] = {};
    int count = 0, next = 0;
    void add(double x);
    double median() const;
  };
  struct Candidate {
    Window kernel, remap;
    int outstanding = 0; // timed launches not reported yet
    int label = 0;
    bool dropped = false;
  };
  Decision probe();
  bool profiled() const;
  void settle();

  Window original_;
  int original_outstanding_ = 0;
  Candidate cands_[kMaxCandidates];
  int count_ = 1;
  bool proposed_ = false;
  int chosen_ = 0;
  bool profiling_ = true;
  long long launches_ = 0, changes_ = 0; // for reuse(), halved every kReuseHalfLife
  long long since_watch_ = 0;
  // Launches per copy the choice spread each remap over; 0: the kernels alone
  // decided (no source written since the first launch).
  double settled_reuse_ = 0;
  std::string why_ = "profiling";
};

} // namespace detail
} // namespace irregfix
