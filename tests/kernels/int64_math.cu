// 64-bit integer arithmetic and 64-bit pointer arithmetic with negative offsets.
// out has 8 long longs per element (see the comments below); rev[i] = src[n-1-i].
extern "C" __global__ void int64_math(const int *a, const int *b, const long long *src,
                                      long long *out, long long *rev, int n, long long bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;

    long long *o = out + 8 * (long long)i;
    // 32x32 -> 64 signed product, shift into the high word, arithmetic shift right
    o[0] = (long long)a[i] * b[i] + ((long long)i << 33) >> 3;

    // difference to the previous element through a negative index p[i - 1]
    const long long *p = src;
    long long s = p[i];
    o[1] = (i > 0) ? s - p[i - 1] : s;

    // reversal through a pointer walked backwards: q = src + n - 1, q[-i]
    const long long *q = src + n - 1;
    rev[i] = q[-i];

    // 64-bit signed compare with a 64-bit scalar parameter, add
    o[2] = (s > bias) ? s + bias : bias - s;

    // unsigned 64-bit multiply (wrapping), xor-shift, variable rotate
    unsigned long long u = (unsigned long long)s;
    unsigned long long h = u * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    unsigned int r = (unsigned int)i & 63u;
    o[3] = (long long)h;
    o[4] = (long long)((u >> r) | (u << ((64u - r) & 63u)));

    // unsigned compare (differs from the signed one when the sign bit is set)
    o[5] = ((unsigned long long)s < (unsigned long long)bias) ? 1 : 0;

    // 64-bit signed division / remainder by a data-dependent nonzero divisor
    long long dv = (long long)(b[i] | 1) * 3;
    o[6] = s / dv;
    o[7] = s % dv;
}
