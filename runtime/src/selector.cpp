// irregfix runtime: the transformed-or-original selector. See selector.h.
#include "selector.h"

#include <algorithm>
#include <cstdio>

namespace irregfix {
namespace detail {

void Selector::Window::add(double x) {
  v[next] = x;
  next = (next + 1) % kWindow;
  count = std::min(count + 1, kWindow);
}

double Selector::Window::median() const {
  if (count == 0)
    return -1;
  double s[kWindow];
  for (int i = 0; i < count; ++i) { // insertion sort: at most kWindow values
    int j = i;
    for (; j > 0 && s[j - 1] > v[i]; --j)
      s[j] = s[j - 1];
    s[j] = v[i];
  }
  return count % 2 ? s[count / 2] : (s[count / 2 - 1] + s[count / 2]) / 2;
}

double Selector::reuse() const {
  return changes_ == 0 ? static_cast<double>(launches_)
                       : static_cast<double>(launches_) / static_cast<double>(changes_);
}

void Selector::add_original(double ms) {
  outstanding_[kRunOriginal] = std::max(0, outstanding_[kRunOriginal] - 1);
  original_.add(ms);
}

void Selector::add_transformed(double kernel_ms) {
  outstanding_[kRunTransformed] = std::max(0, outstanding_[kRunTransformed] - 1);
  transformed_.add(kernel_ms);
}

void Selector::add_remap(double ms) { remap_.add(ms); }

void Selector::cancel(Run run) { outstanding_[run] = std::max(0, outstanding_[run] - 1); }

// Profiling: alternate timed launches, the transformed one first (it builds the
// copy, so the remap is measured too), until kProbes of each are asked; then run
// the original untimed until their timings are back.
Selector::Decision Selector::probe() {
  const int asked_x = transformed_.count + outstanding_[kRunTransformed];
  const int asked_o = original_.count + outstanding_[kRunOriginal];
  Decision d;
  if (asked_x < kProbes || asked_o < kProbes) {
    d.run = asked_o >= kProbes || (asked_x < kProbes && asked_x <= asked_o) ? kRunTransformed
                                                                             : kRunOriginal;
    d.timed = true;
    ++outstanding_[d.run];
    why_ = "profiling";
    return d;
  }
  d.run = kRunOriginal;
  why_ = "profiling (timings not back yet)";
  return d;
}

Selector::Decision Selector::decide(bool copy_valid, bool data_changed) {
  if (launches_ >= kReuseHalfLife) {
    launches_ /= 2;
    changes_ /= 2;
  }
  ++launches_;
  if (data_changed)
    ++changes_;
  if (profiling_) {
    if (original_.count < kProbes || transformed_.count < kProbes)
      return probe();
    profiling_ = false;
  }
  const double o = original_ms(), x = transformed_ms(), gain = o - x;
  const double r = std::max(0.0, remap_ms()), reuse = this->reuse();
  char why[256];
  Decision d;
  if (gain <= kMinGain * o) {
    d.run = kRunOriginal;
    std::snprintf(why, sizeof why, "the transformed kernel (%.1f us) does not beat the original (%.1f us)",
                  x * 1e3, o * 1e3);
  } else if (copy_valid) {
    d.run = kRunTransformed;
    std::snprintf(why, sizeof why, "copies cached: the transformed kernel saves %.1f us (%.1f vs %.1f us)",
                  gain * 1e3, x * 1e3, o * 1e3);
  } else if (gain * reuse > r) {
    d.run = kRunTransformed;
    std::snprintf(why, sizeof why,
                  "a remap (%.1f us) pays off: %.1f launches per copy save %.1f us each", r * 1e3,
                  reuse, gain * 1e3);
  } else {
    d.run = kRunOriginal;
    std::snprintf(why, sizeof why,
                  "a remap (%.1f us) costs more than %.1f launches per copy save (%.1f us each)",
                  r * 1e3, reuse, gain * 1e3);
  }
  why_ = why;
  // Keep watching: time a launch now and then, the other variant when that
  // needs no remap, so the estimates follow the program.
  if (++since_watch_ >= kWatchPeriod) {
    since_watch_ = 0;
    d.timed = true;
    if (d.run == kRunTransformed)
      d.run = kRunOriginal;
    else if (copy_valid)
      d.run = kRunTransformed;
    ++outstanding_[d.run];
  }
  return d;
}

} // namespace detail
} // namespace irregfix
