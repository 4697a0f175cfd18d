// Host-only initial state for the MD sample: a Lennard-Jones liquid-to-be in a
// periodic cubic box, started on a simple cubic lattice with evenly spread
// vacancies, small random displacements and random velocities at temperature T.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mdsys {

struct Atom4 {
  float x, y, z, w;
};

struct System {
  int n = 0;
  float box = 0.0f;         // edge of the periodic box, positions in [0, box)
  int cells = 0;            // cells per box edge of the neighbour-list grid
  std::vector<Atom4> pos;   // w = 0
  std::vector<Atom4> vel;   // w = 0
  double kinetic = 0.0;     // sum of v^2 / 2 (unit masses)
};

// n atoms at number density `density`; cells per edge = floor(box / cell_min)
// (needs at least 3: throws std::invalid_argument otherwise). With `sorted` the
// atoms are numbered cell by cell (z, y, x), so neighbours have nearby indices;
// otherwise in a random permutation. Velocities: uniform random, zero total
// momentum, scaled to temperature `temp` (kinetic = 1.5 n temp).
System make_system(int n, double density, double cell_min, double temp, bool sorted, uint64_t seed);

} // namespace mdsys
