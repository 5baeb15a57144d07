// Expected results of the sm_100a narrow-float cvt forms (fp4 e2m1, fp6 e2m3/e3m2, ue8m0), from
// the HOST (non-__CUDA_ARCH__) conversion functions of NVIDIA's CUDA 13 headers cuda_fp4.hpp,
// cuda_fp6.hpp and cuda_fp8.hpp: NVIDIA's own software reference for the same conversions, and
// independent of ptx-wgsl. Each function converts one lane; the x2 forms apply it per lane.
//
// Build and run (host only, no GPU), from the repository root:
//   g++ -O1 -std=c++17 -I/usr/local/cuda-13.0/include tests/conformance/native/narrow_ref.cpp -o /tmp/narrow_ref
//   /tmp/narrow_ref | gzip -9n > tests/conformance/native/float-narrow-header.json.gz
//
// Output (JSON): "f32" holds the f32 inputs (edge values around every representable value and
// rounding midpoint of each format, specials, seeded randoms) as 8 hex digits each, and per
// conversion a string of 2 hex digits per input. "f16"/"bf16" hold the conversions of every
// 16-bit pattern (index = the pattern). "widen" holds, per format, the f16/bf16 bits (4 hex
// digits) of every 8-bit code 0..255 (fp4: the low 4 bits; fp6: the headers ignore bits 6-7).
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

static uint32_t bitsOf(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
static float floatOf(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
static float halfToFloat(unsigned short h) {
  // exact f16 -> f32 (the header's own __internal_halfraw_to_float)
  __half_raw r; r.x = h;
  return __internal_halfraw_to_float(r);
}

static uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static float fp4Value(unsigned c) { return halfToFloat(__nv_cvt_fp4_to_halfraw((__nv_fp4_storage_t)c, __NV_E2M1).x); }
static float fp6Value(unsigned c, __nv_fp6_interpretation_t k) { return halfToFloat(__nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)c, k).x); }

static void addAround(std::set<uint32_t>& in, float v) {
  const uint32_t b = bitsOf(v) & 0x7fffffffU;
  for (int d = -1; d <= 1; d++) {
    const uint32_t m = b + (uint32_t)d;
    if ((d < 0 && b == 0) || m > 0x7f800000U) continue;
    in.insert(m);
    in.insert(m | 0x80000000U);
  }
}

/** Every non-negative value of a format, the midpoints between neighbours, and past MAX_NORM. */
static void addGrid(std::set<uint32_t>& in, const std::vector<float>& vals) {
  for (size_t i = 0; i < vals.size(); i++) {
    addAround(in, vals[i]);
    if (i + 1 < vals.size()) addAround(in, (vals[i] + vals[i + 1]) / 2);
  }
  const float mx = vals.back();
  const float ulp = mx - vals[vals.size() - 2];
  for (float v : {mx + ulp / 2, mx + ulp, mx * 1.5f, mx * 2, mx * 4}) addAround(in, v);
}

static std::vector<uint32_t> f32Inputs() {
  std::set<uint32_t> in = {0U, 0x80000000U, 0x7f800000U, 0xff800000U, 0x7fc00000U, 0xffc00000U, 0x7f800001U, 0xff800001U,
                           0x7fffffffU, 0xffffffffU, 0x7fbfffffU, 1U, 0x80000001U, 0x007fffffU, 0x807fffffU, 0x00800000U,
                           0x00400000U, 0x00400001U, 0x003fffffU, 0x00410000U, 0x007f0000U, 0x007f0001U, 0x7f7fffffU, 0xff7fffffU,
                           0x7f000000U, 0x7f000001U, 0x7f7f0000U, 0x7f7f0001U, 0x7effffffU};
  std::vector<float> e2m1, e2m3, e3m2;
  for (unsigned c = 0; c < 8; c++) e2m1.push_back(fp4Value(c));
  for (unsigned c = 0; c < 32; c++) e2m3.push_back(fp6Value(c, __NV_E2M3));
  for (unsigned c = 0; c < 32; c++) e3m2.push_back(fp6Value(c, __NV_E3M2));
  addGrid(in, e2m1);
  addGrid(in, e2m3);
  addGrid(in, e3m2);
  // ue8m0: every power of two f32 holds (subnormals included), its neighbours, and 1.5 times it
  for (int e = -149; e <= 127; e++) {
    addAround(in, std::ldexp(1.0f, e));
    if (e < 127) addAround(in, std::ldexp(1.5f, e));
  }
  std::vector<uint32_t> out(in.begin(), in.end());
  uint64_t s = 20260522ULL;
  for (int i = 0; i < 3000; i++) {
    const uint64_t r = splitmix(s);
    uint32_t u = (uint32_t)r;
    // two thirds in the range the narrow formats cover (2^-12 .. 2^11), the rest anywhere
    if (i % 3 != 0) u = (u & 0x807fffffU) | ((uint32_t)(115 + (r >> 40) % 24) << 23);
    out.push_back(u);
  }
  return out;
}

static std::string hex(unsigned v, int digits) {
  char b[16];
  std::snprintf(b, sizeof b, "%0*x", digits, v);
  return b;
}

static void field(const char* name, const std::string& v, bool last = false) {
  std::printf("    \"%s\": \"%s\"%s\n", name, v.c_str(), last ? "" : ",");
}

int main() {
  const std::vector<uint32_t> xs = f32Inputs();
  struct E8 { const char* name; __nv_saturation_t sat; cudaRoundMode rm; };
  const E8 e8[] = {{"ue8m0_rz", __NV_NOSAT, cudaRoundZero}, {"ue8m0_rz_satfinite", __NV_SATFINITE, cudaRoundZero},
                   {"ue8m0_rp", __NV_NOSAT, cudaRoundPosInf}, {"ue8m0_rp_satfinite", __NV_SATFINITE, cudaRoundPosInf}};

  std::printf("{\n  \"generator\": \"tests/conformance/native/narrow_ref.cpp (CUDA 13 cuda_fp4.hpp, cuda_fp6.hpp, cuda_fp8.hpp host paths)\",\n");
  std::printf("  \"f32\": {\n");
  std::string s;
  for (uint32_t x : xs) s += hex(x, 8);
  field("in", s);
  s.clear();
  for (uint32_t x : xs) s += hex(__nv_cvt_float_to_fp4(floatOf(x), __NV_E2M1, cudaRoundNearest), 2);
  field("e2m1", s);
  s.clear();
  for (uint32_t x : xs) s += hex(__nv_cvt_float_to_fp6(floatOf(x), __NV_E2M3, cudaRoundNearest), 2);
  field("e2m3", s);
  s.clear();
  for (uint32_t x : xs) s += hex(__nv_cvt_float_to_fp6(floatOf(x), __NV_E3M2, cudaRoundNearest), 2);
  field("e3m2", s);
  for (int k = 0; k < 4; k++) {
    s.clear();
    for (uint32_t x : xs) s += hex(__nv_cvt_float_to_e8m0(floatOf(x), e8[k].sat, e8[k].rm), 2);
    field(e8[k].name, s, k == 3);
  }
  std::printf("  },\n  \"f16\": {\n");
  s.clear();
  for (unsigned h = 0; h < 65536; h++) {
    __half_raw r; r.x = (unsigned short)h;
    s += hex(__nv_cvt_halfraw_to_fp4(r, __NV_E2M1, cudaRoundNearest), 2);
  }
  field("e2m1", s, true);
  std::printf("  },\n  \"bf16\": {\n");
  for (int k = 0; k < 4; k++) {
    s.clear();
    for (unsigned h = 0; h < 65536; h++) {
      __nv_bfloat16_raw r; r.x = (unsigned short)h;
      s += hex(__nv_cvt_bfloat16raw_to_e8m0(r, e8[k].sat, e8[k].rm), 2);
    }
    field(e8[k].name, s, k == 3);
  }
  std::printf("  },\n  \"widen\": {\n");
  s.clear();
  for (unsigned c = 0; c < 256; c++) s += hex(__nv_cvt_fp4_to_halfraw((__nv_fp4_storage_t)c, __NV_E2M1).x, 4);
  field("e2m1_f16", s);
  s.clear();
  for (unsigned c = 0; c < 256; c++) s += hex(__nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)c, __NV_E2M3).x, 4);
  field("e2m3_f16", s);
  s.clear();
  for (unsigned c = 0; c < 256; c++) s += hex(__nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)c, __NV_E3M2).x, 4);
  field("e3m2_f16", s);
  s.clear();
  for (unsigned c = 0; c < 256; c++) s += hex(__nv_cvt_e8m0_to_bf16raw((__nv_fp8_storage_t)c).x, 4);
  field("ue8m0_bf16", s, true);
  std::printf("  }\n}\n");
  return 0;
}
