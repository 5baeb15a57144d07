// A spin lock with exponential __nanosleep back-off (nanosleep.u32 with a register and with an
// immediate): every thread of a block takes the block's lock once and, inside the critical
// section, draws the next ticket of the block's plain (non-atomic) counter and adds its input to
// the block's sum. The critical section sits inside the retry loop (the pattern that also works
// without independent thread scheduling), so the lock holder never waits for a spinning lane.
extern "C" __global__ void lock_tickets(int *lock, unsigned *counter, unsigned *sum, unsigned *ticket, const unsigned *in) {
  unsigned b = blockIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned backoff = 8;
  bool done = false;
  while (!done) {
    if (atomicCAS(&lock[b], 0, 1) == 0) {
      volatile unsigned *c = &counter[b];
      volatile unsigned *s = &sum[b];
      unsigned t = *c;
      *c = t + 1;
      *s = *s + in[i];
      ticket[i] = t;
      __threadfence();
      atomicExch(&lock[b], 0);
      done = true;
    } else {
      __nanosleep(backoff);
      backoff = backoff < 256 ? backoff * 2 : 256;
    }
  }
  __nanosleep(100);
}
