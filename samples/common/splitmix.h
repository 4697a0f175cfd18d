// Deterministic random numbers for the samples' host-side generators (CG
// matrices, SP formulas, MD initial states): splitmix64 and a small sequential
// generator on it. Host only, header only.
#pragma once

#include <cstdint>

namespace sample {

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Uniform in [0, 1) from 53 random bits.
inline double unit(uint64_t bits) { return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0); }

// Small sequential generator (each sample adds what else it draws).
struct SplitMix {
  uint64_t s;
  explicit SplitMix(uint64_t seed) : s(splitmix64(seed ^ 0x5851f42d4c957f2dULL)) {}
  uint64_t next() { return s = splitmix64(s); }
  double uniform() { return unit(next()); }
};

} // namespace sample
