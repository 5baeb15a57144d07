// arch: sm_90
// Packed 16-bit SIMD intrinsics (issue 4, min/max on .s16x2/.u16x2 with .relu, three-input and
// add-then-min/max forms, sm_90): what nvcc 13 emits for them, including the inline asm of the
// headers, which declares registers without `%` (`.reg .b32 t1;`).
extern "C" __global__ void int_simd16(unsigned *o, const unsigned *a, const unsigned *b, const unsigned *c) {
  int i = threadIdx.x;
  unsigned x = a[i], y = b[i], z = c[i];
  bool p, q;
  o[0*32+i] = __vmins2(x, y);
  o[1*32+i] = __vminu2(x, y);
  o[2*32+i] = __vmaxs2(x, y);
  o[3*32+i] = __vmaxu2(x, y);
  o[4*32+i] = __vimin_s16x2_relu(x, y);
  o[5*32+i] = __vimax_s16x2_relu(x, y);
  o[6*32+i] = __vimin3_s16x2(x, y, z);
  o[7*32+i] = __vimin3_u16x2(x, y, z);
  o[8*32+i] = __vimax3_s16x2(x, y, z);
  o[9*32+i] = __vimax3_u16x2(x, y, z);
  o[10*32+i] = __vimin3_s16x2_relu(x, y, z);
  o[11*32+i] = __vimax3_s16x2_relu(x, y, z);
  o[12*32+i] = __viaddmax_s16x2(x, y, z);
  o[13*32+i] = __viaddmax_u16x2(x, y, z);
  o[14*32+i] = __viaddmin_s16x2_relu(x, y, z);
  unsigned m = __vibmax_s16x2(x, y, &p, &q);
  o[15*32+i] = m + p + 2*q;
  o[16*32+i] = __vimin3_s32(x, y, z);
  o[17*32+i] = __vimax3_s32_relu(x, y, z);
  o[18*32+i] = __vimax_s32_relu(x, y);
  m = __vibmin_u16x2(x, y, &p, &q);
  o[19*32+i] = m + p + 2*q;
}
