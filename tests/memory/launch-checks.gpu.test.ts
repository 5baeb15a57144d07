// R001 before dispatch when a kernel needs more storage buffers than the device binds:
// pointer slots and the buffers the runtime owns (module variables, trap record, 64-bit atomic
// locks) all count (issue 4), but for `.const` up to 64 KiB, bound as a uniform buffer. Layouts come from compile(); the last test launches on WebGPU.
import { afterAll, describe, expect, it } from 'vitest';
import { compile, runPtx } from '../../src/index.js';
import { checkLaunch } from '../../runtime/launch-checks.js';
import { getDefaultDevice, releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

/** A kernel storing to `pointers` distinct pointer parameters, plus optional extras. */
function kernel(pointers: number, extras: { global?: boolean; constant?: boolean; bigConstant?: boolean; trap?: boolean; atom64?: boolean }): string {
  const params = Array.from({ length: pointers }, (_, i) => `.param .u64 p${i}`).join(', ');
  const body = Array.from({ length: pointers }, (_, i) => `ld.param.u64 %rd${i + 1}, [p${i}]; st.global.u32 [%rd${i + 1}], %r1;`).join('\n  ');
  return `.version 9.0
.target sm_80
.address_size 64
${extras.global ? '.global .align 4 .u32 g = 5;' : ''}
${extras.constant ? '.const .align 4 .u32 c = 6;' : ''}
${extras.bigConstant ? '.const .align 4 .b8 cb[70000];' : ''}
.visible .entry k(${params})
{
  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<${pointers + 4}>;
  mov.u32 %r1, %tid.x;
  ${extras.global ? 'ld.global.u32 %r2, [g]; add.u32 %r1, %r1, %r2;' : ''}
  ${extras.constant ? 'ld.const.u32 %r2, [c]; add.u32 %r1, %r1, %r2;' : ''}
  ${extras.bigConstant ? 'ld.const.u32 %r2, [cb+69996]; add.u32 %r1, %r1, %r2;' : ''}
  ${extras.trap ? 'setp.gt.u32 %p1, %r1, 5000; @%p1 trap;' : ''}
  ${extras.atom64 ? `cvt.u64.u32 %rd${pointers + 2}, %r1; atom.global.max.u64 %rd${pointers + 3}, [%rd1], %rd${pointers + 2};` : ''}
  ${body}
  ret;
}`;
}

const limits = (n: number): GPUSupportedLimits => ({
  maxComputeWorkgroupSizeX: 1024, maxComputeWorkgroupSizeY: 1024, maxComputeWorkgroupSizeZ: 64,
  maxComputeInvocationsPerWorkgroup: 1024, maxComputeWorkgroupsPerDimension: 65535,
  maxComputeWorkgroupStorageSize: 49152, maxStorageBuffersPerShaderStage: n, maxUniformBufferBindingSize: 65536,
}) as GPUSupportedLimits;
const shape = { grid: [1, 1, 1] as [number, number, number], block: [32, 1, 1] as [number, number, number], sharedBytes: 0 };
const layoutOf = (src: string) => (compile(src).kernels[0] ?? { layout: undefined }).layout as Parameters<typeof checkLaunch>[0];

describe('storage-buffer limit', () => {
  it('counts pointer slots only when nothing else is bound', () => {
    const layout = layoutOf(kernel(4, {}));
    expect(() => checkLaunch(layout, shape, limits(4))).not.toThrow();
    expect(() => checkLaunch(layout, shape, limits(3))).toThrow(/R001[\s\S]*needs 4 storage buffers \(4 distinct global pointers\); the device binds at most 3/);
  });

  it('counts module variables, the trap record and the atomic locks; .const up to 64 KiB is a uniform buffer', () => {
    const layout = layoutOf(kernel(4, { global: true, constant: true, trap: true, atom64: true }));
    expect(layout.bindings.find((b) => b.kind === 'module-memory' && b.space === 'const')).toMatchObject({ access: 'uniform' });
    expect(() => checkLaunch(layout, shape, limits(7))).not.toThrow();
    expect(() => checkLaunch(layout, shape, limits(6))).toThrow(
      /R001[\s\S]*needs 7 storage buffers \(4 distinct global pointers, .global variables, the trap record, the 64-bit atomic locks\); the device binds at most 6/,
    );
    const big = layoutOf(kernel(4, { global: true, bigConstant: true, trap: true, atom64: true }));
    expect(() => checkLaunch(big, shape, limits(8))).not.toThrow();
    expect(() => checkLaunch(big, shape, limits(7))).toThrow(
      /R001[\s\S]*needs 8 storage buffers \(4 distinct global pointers, .const variables, .global variables, the trap record, the 64-bit atomic locks\); the device binds at most 7/,
    );
  });

  it('a launch over the device limit fails with R001 before anything runs', async () => {
    const device = await getDefaultDevice();
    const max = device.limits.maxStorageBuffersPerShaderStage;
    // Fits exactly with pointers alone; one module variable and the trap record push it over.
    const over = kernel(max - 1, { global: true, trap: true });
    const args = Array.from({ length: max - 1 }, () => new Uint32Array(4).fill(0xdeadbeef));
    await expect(runPtx(over, args, { block: 32 })).rejects.toThrow(new RegExp(`R001[\\s\\S]*needs ${max + 1} storage buffers[\\s\\S]*at most ${max}`));
    expect(args.every((a) => a.every((w) => w === 0xdeadbeef))).toBe(true);
    const fits = kernel(max, {});
    const ok = Array.from({ length: max }, () => new Uint32Array(4).fill(0xdeadbeef));
    await runPtx(fits, ok, { block: 1 });
    expect(ok.every((a) => a[0] === 0 && a[1] === 0xdeadbeef)).toBe(true);
  });
});
