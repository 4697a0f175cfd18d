// irregfix runtime: the online choice, per launch site, between the transformed
// kernel and the original (G-Streamline's online profiling, with the remap
// amortised over the launches that reuse a copy). Plain C++: the runtime feeds
// it event timings; test/unit/runtime drives it with synthetic ones.
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
  };

  static constexpr int kProbes = 3;             // timed launches of each variant first
  static constexpr int kWindow = 8;             // latest samples kept per measure
  static constexpr long long kWatchPeriod = 64; // a timed launch this often afterwards
  static constexpr double kMinGain = 0.03;      // the transformed kernel must save 3%
  static constexpr long long kReuseHalfLife = 256; // launches before the reuse counts halve

  // The next launch. copy_valid: every copy the launch reads is cached and
  // valid (nothing to remap); data_changed: a source of the copies was written
  // (or there was no copy) since the previous launch.
  Decision decide(bool copy_valid, bool data_changed);

  // Timings (ms) of launches decide() asked to time; cancel() when a timed
  // launch did not run the variant asked (the runtime declined, an error).
  void add_original(double ms);
  void add_transformed(double kernel_ms);
  void add_remap(double ms);
  void cancel(Run run);

  // Estimates (median of the window, ms; negative without a sample), the
  // launches a copy serves on average, and why the latest decision.
  double original_ms() const { return original_.median(); }
  double transformed_ms() const { return transformed_.median(); }
  double remap_ms() const { return remap_.median(); }
  int transformed_samples() const { return transformed_.count; }
  double reuse() const;
  bool profiling() const { return profiling_; }
  const std::string &why() const { return why_; }

private:
  struct Window {
    double v[kWindow] = {};
    int count = 0, next = 0;
    void add(double x);
    double median() const;
  };
  Decision probe();

  Window original_, transformed_, remap_;
  int outstanding_[2] = {0, 0}; // timed launches not reported yet, per Run
  bool profiling_ = true;
  long long launches_ = 0, changes_ = 0; // for reuse(), halved every kReuseHalfLife
  long long since_watch_ = 0;
  std::string why_ = "profiling";
};

} // namespace detail
} // namespace irregfix
