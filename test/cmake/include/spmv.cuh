// A header main.cu includes; run.sh touches it and expects irregfix to run again.
#pragma once

#ifndef CONSUMER_SCALE
#error "CONSUMER_SCALE comes from the target's compile definitions"
#endif

struct Csr {
  int n;
  const int *row_ptr;
  const int *col;
  const float *val;
};
