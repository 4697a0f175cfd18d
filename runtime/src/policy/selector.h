// irregfix runtime: the online choice, per launch site, between the original
// kernel and the transformed one in each candidate layout (G-Streamline's
// online profiling, with the remap amortised over the launches that reuse a
// copy). Plain C++: the runtime feeds it event timings; test/unit/runtime
// drives it with synthetic ones.
#pragma once

#include <algorithm>
#include <array>
#include <string>

namespace irregfix {
namespace detail {

struct Config;

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
    // The transformed kernel, chosen because the copies the launcher read last
    // are cached, where a remap would not pay (a watched launch of a launcher
    // settled on the original; a gain that the launches a copy serves do not
    // repay): a launch that finds its copy gone (another key: a new length,
    // another array) runs the original instead of building one.
    bool only_if_cached = false;
  };

  static constexpr int kProbes = 3;             // timed launches of each variant first
  static constexpr int kWindow = 8;             // latest samples kept per measure
  static constexpr long long kWatchPeriod = 64; // a timed launch this often afterwards
  static constexpr double kMinGain = 0.03;      // the transformed kernel must save 3%
  // The timings compared were taken at one problem size: when the original's
  // median moves by this factor from where profiling ended (the program's
  // launches grew or shrank), or its new timings alone would change the
  // verdict, the candidates' timings say nothing of the new size, and
  // profiling starts again (its warm-up done).
  static constexpr double kDrift = 2.0;
  // At most this often (launches since profiling ended), doubling with each
  // time (up to 8 times this): a program whose size swings back and forth, or
  // whose timings hover at a verdict's edge, pays for its probes seldom, and
  // meanwhile keeps the choice its last profiling made.
  static constexpr long long kProfileAgainAfter = 8 * kWatchPeriod;
  static constexpr long long kReuseHalfLife = 256; // launches before the reuse counts halve
  static constexpr int kMaxCandidates = 4;
  // Profiling is bounded: a candidate whose kernel, in each of its first
  // kHopelessSamples timed launches, took kHopeless times the original's (or,
  // with its remap spread over the launches a copy serves, kHopelessWithRemap
  // times) is probed no more.
  static constexpr int kHopelessSamples = 2;
  static constexpr double kHopeless = 1.5;
  static constexpr double kHopelessWithRemap = 3.0;

  // Profiling costs copies and timed launches, which a short run cannot earn
  // back: a launcher first runs the original until its launches have taken
  // `ms` of GPU time in all (the median of its first timed launches times
  // their count), and only then builds and times the candidates (0: at once).
  void set_warm_up(double ms);
  bool warming_up() const { return profiling_ && !warm_; }
  // The GPU time the original's launches took while warming up (the median of
  // its timed launches times their count); -1 without a warm-up (profiling at
  // once), when nothing budgets probing.
  double warmed_ms() const;
  // A candidate's copy that the launches so far do not pay for (range_model.h,
  // kProbeShare): back to warming up, until they have taken `ms`, `why` saying so.
  void put_off(double ms, const std::string &why);

  // The next launch. copy_valid: every copy the launch reads is cached and
  // valid (nothing to remap); data_changed: a source of the copies was written
  // (or there was no copy) since the previous launch. observed (optional, one
  // per candidate): whether candidate c's own copies were written since the
  // previous launch (1, also when just built), not (0), or do not exist (-1:
  // not counted); without it every candidate sees data_changed. Each candidate
  // counts the launches its copy serves on its own (reuse(c)): a locality
  // order's neighbour list changes less often than a copy of the positions.
  Decision decide(bool copy_valid, bool data_changed, const int *observed = nullptr);

  // Launches that ran the original without asking (the settled launcher's
  // fast path; at most untimed_launches() of them), `changes` of them after a
  // write to a source: counted as decide() would have.
  void skipped(long long launches, long long changes);
  // Settled on the original kernel (not profiling, the latest decision was
  // the original and not timed): the launches until the next watched one may
  // run it without asking (untimed_launches of them).
  // Warming up, once the original's probes are timed, the launches short of
  // the warm-up's end may take the fast path too (all but the one that ends it).
  bool runs_original() const { return (!profiling_ && last_original_) || warm_up_untimed() > 0; }
  long long untimed_launches() const { return warming_up() ? warm_up_untimed() : kWatchPeriod - 1 - since_watch_; }

  // The candidate layouts (labels: Layout values), candidate 0 being the one
  // the launches so far ran; taken while profiling, once (the first proposal
  // holds). Without a call the selector has one candidate, labelled 0.
  void set_candidates(const int *labels, int count);
  // A candidate that could not run (its copy could not be built): no longer
  // probed nor chosen. Candidate 0 is kept (it is retried, as before).
  void drop(int candidate);
  // The cost model expects every layout to lose (range_model.h): nothing is
  // copied nor timed, and every launch from now on runs the original (on the
  // settled launcher's path), `why` saying so.
  void rule_out(const std::string &why);
  bool ruled_out() const { return ruled_out_; }

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
  double reuse(int c) const;
  bool hopeless(int c) const { return cands_[c].hopeless; }
  bool profiling() const { return profiling_; }
  int candidates() const { return count_; }
  int label(int c) const { return cands_[c].label; }
  bool dropped(int c) const { return cands_[c].dropped; }
  int chosen() const { return chosen_; }
  const std::string &why() const { return why_; }
  int reprofiles() const { return reprofiles_; }

  // The report's line: why, then the medians of the original and of each
  // candidate (named by name(label)), the chosen one marked, and the reuse.
  std::string summary(const char *(*name)(int label)) const;

private:
  struct Window {
    double v[kWindow] = {};
    int count = 0, next = 0;
    long long total = 0; // samples ever added
    void add(double x);
    double median() const;
  };
  struct Candidate {
    Window kernel, remap;
    int outstanding = 0; // timed launches not reported yet
    int label = 0;
    bool dropped = false;
    bool hopeless = false; // probed no more (kHopeless)
    double least_kernel = -1; // the least kernel sample so far
    long long launches = 0, changes = 0; // observed while its copy existed (reuse(c))
  };
  Decision probe();
  Decision warm_up();
  long long warm_up_untimed() const;
  bool profiled() const;
  void settle();
  enum Verdict { kLoses, kRepaysRemap, kWinsIfCached };
  Verdict verdict() const;
  void hold_verdict(Verdict v);
  bool only_original_timed_since_verdict() const;
  bool drifted() const;
  long long profile_again_after() const; // launches since profiling ended
  void profile_again();
  void count_launch(bool data_changed, const int *observed);
  void judge(int c);
  double per_copy(int c) const;

  Window original_;
  int original_outstanding_ = 0;
  Candidate cands_[kMaxCandidates];
  int count_ = 1;
  bool proposed_ = false;
  int chosen_ = 0;
  bool profiling_ = true;
  long long launches_ = 0, changes_ = 0; // for reuse(), halved every kReuseHalfLife
  long long since_watch_ = 0;
  bool last_original_ = false; // the latest decision: the original, untimed
  bool per_candidate_ = false;  // decide() was told each candidate's own writes
  // Launches per copy the choice spread each remap over; 0: the kernels alone
  // decided (no source written since the first launch).
  double settled_reuse_ = 0;
  std::string why_ = "profiling";
  double warm_up_target() const { return std::max(warm_up_ms_, put_off_ms_); }
  double warm_up_spent() const; // the original's median times the warm-up's launches

  double warm_up_ms_ = 0;
  double put_off_ms_ = 0; // put_off: the warm-up lengthened to this
  bool warm_ = false;
  long long warm_up_launches_ = 0; // launches of the original while warming up
  bool ruled_out_ = false;          // rule_out: the original, without profiling
  double settled_original_ = -1;    // the original's median when profiling ended
  long long since_settled_ = 0;     // launches since
  int reprofiles_ = 0;              // profiling started again (kDrift, a stale verdict)
  Verdict verdict_ = kLoses;        // the latest verdict, and the samples it saw:
  std::array<long long, 3> verdict_samples_{}; // the original's, the chosen kernel's and remap's totals
};

// Whether a launcher with this selector runs the original, until its next
// watched launch, without taking the runtime's lock (begin_launch's fast
// path): it settled on the original under auto, and the runtime is not
// disabled. Nothing else decides an untimed launch of a settled launcher:
// IRREGFIX_RENUMBER shapes only the copies of transformed launches, and the
// original's time scale only the timed launches read back, which the fast path
// never runs (its budget ends before the watched launch).
bool fast_path_allowed(const Config &cfg, const Selector &sel);

} // namespace detail
} // namespace irregfix
