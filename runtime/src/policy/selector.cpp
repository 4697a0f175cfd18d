// irregfix runtime: the original-or-candidate-layout selector. See selector.h.
#include "selector.h"

#include "config.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace irregfix {
namespace detail {

void Selector::Window::add(double x) {
  ++total;
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

double Selector::reuse(int c) const {
  const Candidate &k = cands_[c];
  if (!per_candidate_ || k.launches == 0)
    return reuse();
  return k.changes == 0 ? static_cast<double>(k.launches)
                        : static_cast<double>(k.launches) / static_cast<double>(k.changes);
}

// One launch into the reuse counts: the launcher's, and each candidate's own
// while its copy exists. Counts halve every kReuseHalfLife launches, so that
// they follow a program whose writes change pace.
void Selector::count_launch(bool data_changed, const int *observed) {
  if (launches_ >= kReuseHalfLife) {
    launches_ /= 2;
    changes_ /= 2;
  }
  ++launches_;
  ++since_settled_;
  if (data_changed)
    ++changes_;
  per_candidate_ |= observed != nullptr;
  for (int c = 0; c < count_; ++c) {
    const int o = observed ? observed[c] : data_changed ? 1 : 0;
    Candidate &k = cands_[c];
    if (o < 0)
      continue;
    if (k.launches >= kReuseHalfLife) {
      k.launches /= 2;
      k.changes /= 2;
    }
    ++k.launches;
    if (o > 0)
      ++k.changes;
  }
}

void Selector::skipped(long long launches, long long changes) {
  if (launches <= 0)
    return;
  changes = std::max(0LL, std::min(changes, launches));
  auto add = [&](long long &l, long long &c) {
    l += launches;
    c += changes;
    while (l > kReuseHalfLife) {
      l /= 2;
      c /= 2;
    }
  };
  if (warming_up()) { // no copy yet: only the warm-up's count
    warm_up_launches_ += launches;
    return;
  }
  add(launches_, changes_);
  since_settled_ += launches;
  for (int c = 0; c < count_; ++c)
    if (cands_[c].launches > 0)
      add(cands_[c].launches, cands_[c].changes);
  since_watch_ += launches;
}

// The launches a copy of candidate c serves, as the choice spreads its remap
// over them; 0 until a source is written after the copy's first build (then
// each copy has served every launch since, and a first remap pays one-time
// costs such as loading the remap kernels: the kernels alone decide).
double Selector::per_copy(int c) const {
  const long long changes = per_candidate_ ? cands_[c].changes : changes_;
  return changes > 1 ? std::max(1.0, reuse(c)) : 0;
}

// A candidate that lost by far in its first timed launches is probed no more.
void Selector::judge(int c) {
  Candidate &k = cands_[c];
  const double o = original_.median();
  if (!profiling_ || k.hopeless || k.kernel.count < kHopelessSamples || o <= 0)
    return;
  const double per = per_copy(c), remap = std::max(0.0, k.remap.median());
  k.hopeless = k.least_kernel >= kHopeless * o ||
               (per > 0 && k.least_kernel + remap / per >= kHopelessWithRemap * o);
}

void Selector::set_candidates(const int *labels, int count) {
  if (!profiling_ || proposed_ || count <= 0)
    return;
  proposed_ = true;
  count_ = std::min(count, kMaxCandidates);
  for (int c = 0; c < count_; ++c)
    cands_[c].label = labels[c];
}

void Selector::drop(int candidate) {
  if (candidate <= 0 || candidate >= count_ || cands_[candidate].dropped)
    return;
  cands_[candidate].dropped = true;
  cands_[candidate].outstanding = 0;
  if (!profiling_ && chosen_ == candidate)
    settle();
}

void Selector::rule_out(const std::string &why) {
  profiling_ = false;
  ruled_out_ = true;
  why_ = why;
}

void Selector::add_original(double ms) {
  original_outstanding_ = std::max(0, original_outstanding_ - 1);
  original_.add(ms);
  for (int c = 0; c < count_; ++c)
    judge(c);
}

void Selector::add_transformed(double kernel_ms, int candidate) {
  Candidate &c = cands_[candidate];
  c.outstanding = std::max(0, c.outstanding - 1);
  c.kernel.add(kernel_ms);
  c.least_kernel = c.least_kernel < 0 ? kernel_ms : std::min(c.least_kernel, kernel_ms);
  judge(candidate);
}

void Selector::add_remap(double ms, int candidate) { cands_[candidate].remap.add(ms); }

void Selector::cancel(Run run, int candidate) {
  int &outstanding = run == kRunOriginal ? original_outstanding_ : cands_[candidate].outstanding;
  outstanding = std::max(0, outstanding - 1);
}

// Profiling: timed launches of each variant in turn (candidate 0, the
// original, then the other candidates; candidate 0 first, as it builds the
// copy whose build proposes the others), until kProbes of each are asked;
// then the original, untimed, until their timings are back.
Selector::Decision Selector::probe() {
  Decision d;
  int best = -2, best_asked = kProbes; // -1: the original
  auto consider = [&](int variant, int asked) {
    if (asked < best_asked) {
      best = variant;
      best_asked = asked;
    }
  };
  if (!cands_[0].hopeless)
    consider(0, cands_[0].kernel.count + cands_[0].outstanding);
  consider(-1, original_.count + original_outstanding_);
  for (int c = 1; c < count_; ++c)
    if (!cands_[c].dropped && !cands_[c].hopeless)
      consider(c, cands_[c].kernel.count + cands_[c].outstanding);
  if (best == -2) {
    d.run = kRunOriginal;
    why_ = "profiling (timings not back yet)";
    return d;
  }
  d.timed = true;
  if (best == -1) {
    d.run = kRunOriginal;
    ++original_outstanding_;
  } else {
    d.candidate = best;
    ++cands_[best].outstanding;
  }
  why_ = "profiling";
  return d;
}

bool Selector::profiled() const {
  if (original_.count < kProbes)
    return false;
  for (int c = 0; c < count_; ++c)
    if (!cands_[c].dropped && !cands_[c].hopeless && cands_[c].kernel.count < kProbes)
      return false;
  return true;
}

// The candidate with the least kernel time plus its remap spread over the
// launches a copy serves. Until a source is written after the first launch,
// each copy has served every launch since its build (and a first remap pays
// one-time costs such as loading the remap kernels): the kernels alone decide.
void Selector::settle() {
  double least = -1;
  chosen_ = 0;
  settled_reuse_ = per_copy(0);
  for (int c = 0; c < count_; ++c) {
    if (cands_[c].dropped || cands_[c].kernel.count == 0)
      continue;
    const double per = per_copy(c);
    const double remap = per > 0 ? std::max(0.0, remap_ms(c)) / per : 0;
    const double cost = transformed_ms(c) + remap;
    if (least < 0 || cost < least) {
      least = cost;
      chosen_ = c;
      settled_reuse_ = per;
    }
  }
}

bool Selector::drifted() const {
  const double o = original_.median();
  return settled_original_ > 0 && o > 0 && (o > kDrift * settled_original_ || o * kDrift < settled_original_);
}

long long Selector::profile_again_after() const { return kProfileAgainAfter << std::min(reprofiles_, 3); }

// Every timing starts over (each was taken at the old size, remaps included);
// a candidate probed no more may win at the new size. Samples still in flight
// land in the new windows: one launch's worth of the old size at most each.
void Selector::profile_again() {
  profiling_ = true;
  original_ = Window{};
  for (int c = 0; c < count_; ++c) {
    Candidate &k = cands_[c];
    k.kernel = k.remap = Window{};
    k.hopeless = false;
    k.least_kernel = -1;
  }
  since_watch_ = 0;
  settled_original_ = -1;
  ++reprofiles_;
}

// The reason is written when the warm-up time is set, not at each launch.
void Selector::set_warm_up(double ms) {
  if (ms == warm_up_ms_)
    return;
  warm_up_ms_ = ms;
  if (warming_up() && ms > 0) {
    char why[160];
    std::snprintf(why, sizeof why, "warming up: the original kernel until its launches have taken %.0f ms", ms);
    why_ = why;
  }
}

double Selector::warm_up_spent() const {
  return original_.count > 0 ? original_.median() * static_cast<double>(warm_up_launches_) : 0;
}

double Selector::warmed_ms() const { return warm_up_ms_ <= 0 ? -1 : warm_up_spent(); }

void Selector::put_off(double ms, const std::string &why) {
  if (!profiling_ || ms <= warm_up_target())
    return;
  put_off_ms_ = ms;
  warm_ = false;
  why_ = why;
}

// Before profiling: the original, its first kProbes launches timed (the
// samples profiling then starts from), until median x launches reaches the
// warm-up time.
Selector::Decision Selector::warm_up() {
  Decision d;
  d.run = kRunOriginal;
  ++warm_up_launches_;
  if (original_.count + original_outstanding_ < kProbes) {
    d.timed = true;
    ++original_outstanding_;
  }
  return d;
}

long long Selector::warm_up_untimed() const {
  if (!warming_up() || warm_up_target() <= 0 || original_outstanding_ > 0 || original_.count < kProbes)
    return 0;
  const double m = original_.median();
  if (!(m > 0))
    return 0;
  const double left = std::ceil(warm_up_target() / m) - static_cast<double>(warm_up_launches_) - 1;
  return left > 0 ? static_cast<long long>(std::min(left, 1e12)) : 0;
}

// What the estimates say, apart from whether the copies are cached: the
// transformed kernel does not beat the original; it does, and repays a remap;
// it does, but only where its copies are cached.
Selector::Verdict Selector::verdict() const {
  const double o = original_ms(), gain = o - transformed_ms();
  if (gain <= kMinGain * o)
    return kLoses;
  return gain * reuse(chosen_) > std::max(0.0, remap_ms()) ? kRepaysRemap : kWinsIfCached;
}

void Selector::hold_verdict(Verdict v) {
  verdict_ = v;
  verdict_samples_ = {original_.total, cands_[chosen_].kernel.total, cands_[chosen_].remap.total};
}

// A verdict that the original's new timings alone would change compares them
// with the candidate's timings of another time, perhaps of another size: a
// program whose launches grew would seem to gain. Those are taken again first.
bool Selector::only_original_timed_since_verdict() const {
  const Candidate &k = cands_[chosen_];
  return original_.total != verdict_samples_[0] && k.kernel.total == verdict_samples_[1] &&
         k.remap.total == verdict_samples_[2];
}

Selector::Decision Selector::decide(bool copy_valid, bool data_changed, const int *observed) {
  last_original_ = false;
  // (Warm-up launches are not counted for reuse: no copy exists to see a write.)
  if (profiling_ && !warm_) {
    const double target = warm_up_target();
    warm_ = target <= 0 || (original_.count > 0 && warm_up_spent() >= target);
    if (!warm_)
      return warm_up();
  }
  count_launch(data_changed, observed);
  Decision d;
  if (ruled_out_) { // nothing to time: the original, until the next watch, on the fast path
    d.run = kRunOriginal;
    last_original_ = true;
    return d;
  }
  if (profiling_) {
    if (!profiled())
      return probe();
    profiling_ = false;
    settle();
    settled_original_ = original_.median();
    since_settled_ = 0;
    hold_verdict(verdict());
    d.settled = true;
  } else {
    const Verdict now = verdict();
    const bool drift = drifted();
    const bool stale = now != verdict_ && only_original_timed_since_verdict();
    if ((drift || stale) && since_settled_ >= profile_again_after()) {
      char why[200];
      std::snprintf(why, sizeof why, "profiling again: the original's time moved from %.1f to %.1f us%s",
                    settled_original_ * 1e3, original_.median() * 1e3,
                    drift ? "" : ", which alone would change the choice");
      profile_again();
      d = probe();
      why_ = why;
      return d;
    }
    if (now != verdict_ && !stale) // a stale one is held until profiling may start again
      hold_verdict(now);
  }
  d.candidate = chosen_;
  const double o = original_ms(), x = transformed_ms(), gain = o - x;
  const double r = std::max(0.0, remap_ms()), reuse = this->reuse(chosen_);
  char why[256];
  if (verdict_ == kLoses) {
    d.run = kRunOriginal;
    std::snprintf(why, sizeof why, "the transformed kernel (%.1f us) does not beat the original (%.1f us)",
                  x * 1e3, o * 1e3);
  } else if (copy_valid) {
    d.run = kRunTransformed;
    // The copies the launcher read last: a launch that asks for another key
    // (a new length) finds none, and runs the original where a remap does not pay.
    d.only_if_cached = remap_ms() >= 0 && verdict_ == kWinsIfCached;
    std::snprintf(why, sizeof why, "copies cached: the transformed kernel saves %.1f us (%.1f vs %.1f us)",
                  gain * 1e3, x * 1e3, o * 1e3);
  } else if (remap_ms() < 0 && cands_[chosen_].outstanding == 0) {
    // A copy to make, and no remap timed on its own yet (the first copies were
    // made inside pipelined launches, timed as kernels): time this one, so that
    // a program that starts writing the sources is not taken to remap for free.
    d.run = kRunTransformed;
    d.timed = true;
    ++cands_[chosen_].outstanding;
    std::snprintf(why, sizeof why, "timing a remap: the transformed kernel saves %.1f us (%.1f vs %.1f us)",
                  gain * 1e3, x * 1e3, o * 1e3);
    why_ = why;
    return d;
  } else if (verdict_ == kRepaysRemap) {
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
    if (d.run == kRunTransformed) {
      d.run = kRunOriginal;
      d.only_if_cached = false;
    } else if (copy_valid) {
      d.run = kRunTransformed;
      d.only_if_cached = true;
    }
    if (d.run == kRunOriginal)
      ++original_outstanding_;
    else
      ++cands_[chosen_].outstanding;
  }
  last_original_ = d.run == kRunOriginal && !d.timed;
  return d;
}

std::string Selector::summary(const char *(*name)(int label)) const {
  char part[200];
  auto us = [](double ms) { return ms < 0 ? -1.0 : ms * 1e3; };
  auto again = [this] {
    char text[100];
    if (reprofiles_ == 0)
      return std::string();
    std::snprintf(text, sizeof text, "; profiled again %d time%s (the original's time moved)", reprofiles_,
                  reprofiles_ == 1 ? "" : "s");
    return std::string(text);
  };
  if (ruled_out_)
    return "original: " + why_;
  if (!proposed_) { // one transformed variant, no layouts to name
    std::snprintf(part, sizeof part,
                  "; medians: original %.1f us, transformed %.1f us, remap %.1f us (-1: none timed); "
                  "%.1f launches per copy",
                  us(original_ms()), us(transformed_ms()), us(remap_ms()), reuse());
    return why_ + part + again();
  }
  std::string out = profiling_ ? why_ : std::string(name(label(chosen_))) + ": " + why_;
  std::snprintf(part, sizeof part, "; medians (us, -1: none timed): original %.1f", us(original_ms()));
  out += part;
  for (int c = 0; c < count_; ++c) {
    std::snprintf(part, sizeof part, ", %s %.1f + remap %.1f", name(label(c)), us(transformed_ms(c)),
                  us(remap_ms(c)));
    out += part;
    if (dropped(c))
      out += " (dropped: its copy could not be built)";
    else if (hopeless(c) && !(c == chosen_ && !profiling_))
      out += " (probed no more: far slower than the original)";
    else if (!profiling_ && c == chosen_ && count_ > 1) {
      if (settled_reuse_ > 0)
        std::snprintf(part, sizeof part,
                      " (chosen: least kernel time plus remap / %.1f launches per copy)",
                      settled_reuse_);
      else
        std::snprintf(part, sizeof part, " (chosen: least kernel time, its copy never rewritten)");
      out += part;
    }
  }
  std::snprintf(part, sizeof part, "; %.1f launches per copy", reuse(chosen_));
  return out + part + again();
}

bool fast_path_allowed(const Config &cfg, const Selector &sel) {
  return sel.runs_original() && cfg.layout == 0 && !cfg.disabled;
}

} // namespace detail
} // namespace irregfix
