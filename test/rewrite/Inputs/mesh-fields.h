// Fields of a struct, included inside its body (as some programs do).
int count; float *data;
