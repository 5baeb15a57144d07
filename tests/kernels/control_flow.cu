// Data-dependent control flow: early return, for/while/do-while loops with
// break and continue, nested loops, and a switch with fallthrough.
// out has 4 ints per element: {acc, steps, nested, sw + d}.
extern "C" __global__ void control_flow(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;

    int v = in[i];
    if (v < 0) {                      // early return with a result
        out[4 * i + 0] = -1;
        out[4 * i + 1] = -1;
        out[4 * i + 2] = -1;
        out[4 * i + 3] = -1;
        return;
    }

    // for loop with continue and break
    int acc = 0;
    for (int k = 0; k < v; k++) {
        if (k % 3 == 0) continue;
        if (acc > 1000) break;
        acc += k * (i & 7);
    }

    // while loop: bounded Collatz iteration
    unsigned int x = (unsigned int)v + 1u;
    int steps = 0;
    while (x != 1u) {
        if (steps >= 60) break;
        x = (x & 1u) ? 3u * x + 1u : x >> 1;
        steps++;
    }

    // nested loops: continue in the outer loop, break out of the inner one
    int nested = 0;
    for (int a = 0; a < (v & 15); a++) {
        if (a == 7) continue;
        for (int b = 0; b < a; b++) {
            if ((a * b + i) % 5 == 4) break;
            nested += a ^ b;
        }
        if (nested > 200) break;
    }

    // switch with fallthrough and default
    int sw = 0;
    switch (v % 7) {
    case 0:
        sw = acc;
        break;
    case 1:
        sw = steps * 3;
        break;
    case 2:
        sw = nested;
        /* fallthrough */
    case 3:
        sw += 11;
        break;
    case 5:
        sw = -steps;
        break;
    default:
        sw = i % 13;
        break;
    }

    // do-while: runs at least once
    int d = 0;
    do {
        d += 2;
    } while (d < (v & 7));

    out[4 * i + 0] = acc;
    out[4 * i + 1] = steps;
    out[4 * i + 2] = nested;
    out[4 * i + 3] = sw + d;
}
