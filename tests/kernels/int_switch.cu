// A switch-heavy kernel: a dense switch (jump table or compare chain) inside a loop that
// runs a small integer "bytecode" program per thread.
#include <stdint.h>

extern "C" __global__ void int_switch(const uint8_t *code, const uint32_t *init, uint32_t *out, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t acc = init[i], x = (uint32_t)i;
  for (int pc = 0; pc < len; pc++) {
    uint8_t op = code[(i * 7 + pc) % (n + len)];
    switch (op % 16) {
      case 0: acc += x; break;
      case 1: acc -= x * 3u; break;
      case 2: acc ^= acc >> 7; break;
      case 3: acc *= 0x9E3779B1u; break;
      case 4: acc = (acc << 5) | (acc >> 27); break;
      case 5: x = x * 1664525u + 1013904223u; break;
      case 6: acc = ~acc; break;
      case 7: acc = acc / (x | 1u); break;
      case 8: acc = acc % 1000003u; break;
      case 9: acc += (uint32_t)__popc(x); break;
      case 10: acc = (int32_t)acc >> 3; break;
      case 11: x ^= acc; break;
      case 12: acc = __brev(acc); break;
      case 13: acc += __clz(x); break;
      case 14: acc = max((int32_t)acc, (int32_t)x); break;
      default: acc = acc * 2u + 1u; break;
    }
  }
  out[i] = acc;
}
