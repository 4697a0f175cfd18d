#!/usr/bin/env python3
"""Inputs for the real programs of bench/realworld.json whose own input is not in the suite without its DVC
data: written in each program's format, deterministic (a fixed-seed generator), by the programs' "setup".

  realworld_inputs.py pgm ROWS COLS PATH
      A plain (P2) grey image, ROWS x COLS, values 0-255: bright and dark regions under speckle, as an
      ultrasound image that SRAD smooths. The header takes exactly three lines (srad skips three newlines).
  realworld_inputs.py sssp-graph SIDE GRAPH DISTANCES
      A road-like weighted directed graph of SIDE x SIDE nodes in the Chai SSSP format ("nodes edges",
      the source, per node "first-edge out-degree", per edge "target cost"), and its shortest distances
      from the source ("nodes", per node "node distance"), which the program compares its own with.
      Each node leads right, down, and left or up (alternately), costs 1-100: every node is reachable from
      the top-left source, and paths that turn back make the frontier revisit nodes. Out-degree 3 at most
      keeps a block's queue within the program's W_QUEUE_SIZE (1600: at most 799 queued before a round of
      256 nodes that push 3 each).
"""

import heapq
import os
import sys


class Lcg:
    """A fixed-seed generator, so that every machine writes the same input."""

    def __init__(self, seed):
        self.state = seed

    def next(self, bound):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 33) % bound


def ensure_folder(path):
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)


def write_pgm(rows, cols, path):
    rng = Lcg(12345)
    lines = ["P2", "%d %d" % (cols, rows), "255"]
    for i in range(rows):
        row = []
        for j in range(cols):
            di, dj = i - rows // 2, j - cols // 2
            base = 180 if di * di + dj * dj < (min(rows, cols) // 3) ** 2 else 60
            base += 40 if (i // 64 + j // 64) % 2 else 0
            row.append(str(max(0, min(255, base + rng.next(61) - 30))))
        lines.append(" ".join(row))
    ensure_folder(path)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def sssp_graph(side):
    """Adjacency lists (target, cost) of the side x side graph, node y * side + x."""
    rng = Lcg(2016)
    adjacency = []
    for y in range(side):
        for x in range(side):
            out = []
            if x + 1 < side:
                out.append((y * side + x + 1, 1 + rng.next(100)))
            if y + 1 < side:
                out.append(((y + 1) * side + x, 1 + rng.next(100)))
            if (x + y) % 2 == 0 and x > 0:
                out.append((y * side + x - 1, 1 + rng.next(100)))
            elif (x + y) % 2 == 1 and y > 0:
                out.append(((y - 1) * side + x, 1 + rng.next(100)))
            adjacency.append(out)
    return adjacency


def shortest_distances(adjacency, source):
    distance = [None] * len(adjacency)
    distance[source] = 0
    heap = [(0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if d != distance[u]:
            continue
        for v, cost in adjacency[u]:
            if distance[v] is None or d + cost < distance[v]:
                distance[v] = d + cost
                heapq.heappush(heap, (d + cost, v))
    return distance


def write_sssp(side, graph_path, distances_path):
    adjacency = sssp_graph(side)
    source = 0
    edges = sum(len(out) for out in adjacency)
    lines = ["%d %d" % (len(adjacency), edges), str(source)]
    first = 0
    for out in adjacency:
        lines.append("%d %d" % (first, len(out)))
        first += len(out)
    lines += ["%d %d" % edge for out in adjacency for edge in out]
    ensure_folder(graph_path)
    with open(graph_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    # The program keeps a distance as its negation and an unreached node at -INF (2147483647 here).
    distance = shortest_distances(adjacency, source)
    ensure_folder(distances_path)
    with open(distances_path, "w") as f:
        f.write("%d\n" % len(adjacency))
        f.write("".join("%d %d\n" % (i, 2147483647 if d is None else d) for i, d in enumerate(distance)))


def main(argv):
    if len(argv) == 5 and argv[1] == "pgm":
        write_pgm(int(argv[2]), int(argv[3]), argv[4])
    elif len(argv) == 5 and argv[1] == "sssp-graph":
        write_sssp(int(argv[2]), argv[3], argv[4])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
