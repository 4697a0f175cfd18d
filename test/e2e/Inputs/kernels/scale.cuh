#pragma once
__device__ inline float scale(float s) { return 0.5f * s; }
