/**
 * `ptx-wgsl info`: the default adapter, what it offers, and which path each feature of the
 * compiler takes on it, as the runtime's one-time device probes decided.
 */
import { probeSubgroups } from '../../runtime/probe-subgroups.js';
import { subgroupMatrixConfigs } from '../../runtime/device.js';
import { createContext, type Context, type NativeFloat } from '../index.js';
import { COMMON, COMMON_HELP, EXIT_HELP, type Command } from './command.js';
import { EXIT } from './exit.js';
import { jsonText } from './io.js';

export const infoCommand: Command = {
  name: 'info',
  help: `usage: ptx-wgsl info [--json]

Opens the default WebGPU adapter as kernels do and prints its vendor, architecture, device and
driver, the features and limits of the device ptx-wgsl requests, the subgroup sizes (the
adapter's range and what the probe saw), and which path each feature takes on this device:
  warps         subgroups (CUDA warps are the device's 32-lane subgroups) or emulated (workgroup memory)
  fma.rn.f32    fused (WGSL fma() fuses on this device) or emulated (exact integer arithmetic)
  f32           which operations run natively because the device computes them exactly as PTX
                does (add/sub/mul, .ftz, canonical NaN, .approx functions); the rest take exact helpers
  matrices      tensor-core (wmma as WGSL subgroup matrices, where Dawn offers them) or portable

${COMMON_HELP}

--json prints {"command": "info", "ok", "host", "adapter": {"vendor", "architecture", "device",
"description", "isFallbackAdapter"}, "features": [...], "limits": {...}, "subgroups": {"minSize",
"maxSize", "probedSize", "consecutive"}, "paths": {"warps", "warpsReason", "subgroupSize",
"pinnedSubgroupSize", "fma", "f32": {"addMul", "ftz", "ftzFma", "canonicalNaN", "approx", "approxFtz"} | null, "matrices", "matricesReason"}}.
${EXIT_HELP}`,
  options: { ...COMMON },
  async run(_values, _positionals, io) {
    const ctx = await createContext(io.log ? { log: io.log } : {});
    const info = await deviceInfo(ctx);
    io.out(io.json ? `${jsonText({ command: 'info', ok: true, ...info })}\n` : formatInfo(info));
    return EXIT.ok;
  },
};

type DeviceInfo = Awaited<ReturnType<typeof deviceInfo>>;

async function deviceInfo(ctx: Context) {
  const { device } = ctx;
  const adapter = (device as { adapterInfo?: GPUAdapterInfo & { subgroupMinSize?: number; subgroupMaxSize?: number } }).adapterInfo;
  const limits: Record<string, number> = {};
  for (const name in device.limits) {
    const v = (device.limits as unknown as Record<string, unknown>)[name];
    if (typeof v === 'number') limits[name] = v;
  }
  const probe = await probeSubgroups(device);
  const warps = ctx.subgroups?.size === 32 ? 'subgroups' : 'emulated';
  return {
    host: hostName(),
    adapter: {
      vendor: adapter?.vendor ?? '',
      architecture: adapter?.architecture ?? '',
      device: adapter?.device ?? '',
      description: adapter?.description ?? '',
      ...(adapter && 'isFallbackAdapter' in adapter ? { isFallbackAdapter: (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter } : {}),
    },
    features: [...device.features].sort(),
    limits,
    subgroups: {
      minSize: adapter?.subgroupMinSize ?? null,
      maxSize: adapter?.subgroupMaxSize ?? null,
      probedSize: probe.size ?? null,
      consecutive: probe.consecutive,
    },
    paths: {
      warps,
      warpsReason: warpsReason(device, ctx, probe),
      subgroupSize: ctx.subgroups?.size ?? null,
      pinnedSubgroupSize: ctx.subgroups?.pinned === true,
      fma: ctx.fusedFma ? 'fused' : 'emulated',
      f32: ctx.nativeFloat ? floatFacts(ctx.nativeFloat) : null,
      ...matrixPath(device, ctx),
    },
  };
}

function warpsReason(device: GPUDevice, ctx: Context, probe: { size: number | undefined; consecutive: boolean }): string {
  if (ctx.subgroups?.size === 32) {
    return ctx.subgroups.pinned ? '32-lane subgroups in thread order when pinned with @subgroup_size(32) (probed)' : '32-lane subgroups in thread order (probed)';
  }
  if (!device.features.has('subgroups')) return 'the device has no subgroups feature';
  if (ctx.subgroups) return `the device's subgroups have ${ctx.subgroups.size} lanes, not 32`;
  if (probe.size === undefined) return 'the subgroup size varies and cannot be pinned to 32';
  return probe.consecutive ? `the device's subgroups have ${probe.size} lanes, not 32` : 'subgroup lanes are not laid out in thread order';
}

/** Where wmma goes on this device (lowering/matrix-path.ts decides per kernel, from the same facts). */
function matrixPath(device: GPUDevice, ctx: Context): { matrices: 'tensor-core' | 'portable'; matricesReason: string } {
  const configs = subgroupMatrixConfigs(device);
  const list = configs.map((c) => `${c.componentType}->${c.resultComponentType} ${c.M}x${c.N}x${c.K}`).join(', ');
  if (configs.length === 0) return { matrices: 'portable', matricesReason: 'no subgroup matrices (Dawn exposes them with PTX_WGSL_DAWN_FLAGS, see the README)' };
  if (ctx.subgroups?.size !== 32 || ctx.subgroups.pinned) return { matrices: 'portable', matricesReason: `subgroup matrices ${list}, but a warp is not one subgroup here` };
  return { matrices: 'tensor-core', matricesReason: `subgroup matrices ${list}: wmma m16n16k16 f16 kernels whose fragments flow only between wmma instructions` };
}

function floatFacts(f: NativeFloat): NativeFloat {
  return { addMul: f.addMul, ftz: f.ftz, ftzFma: f.ftzFma, canonicalNaN: f.canonicalNaN, approx: f.approx, approxFtz: f.approxFtz, minMax: f.minMax };
}

function hostName(): string {
  const g = globalThis as { Deno?: { version?: { deno?: string } }; process?: { versions?: { node?: string } } };
  if (g.Deno?.version?.deno) return `deno ${g.Deno.version.deno}`;
  if (g.process?.versions?.node) return `node ${g.process.versions.node} (Dawn, npm package webgpu)`;
  return 'browser';
}

function formatInfo(i: DeviceInfo): string {
  const a = i.adapter;
  const f32 = i.paths.f32;
  const native = f32
    ? [f32.addMul ? 'add/sub/mul' : '', f32.ftz ? '.ftz arithmetic' : '', f32.ftzFma ? 'fma.rn.ftz' : '', f32.canonicalNaN ? 'canonical NaN' : '', ...f32.approx.map((x) => `${x}.approx`), ...f32.approxFtz.map((x) => `${x}.approx.ftz`)].filter((s) => s)
    : [];
  const sg = i.subgroups;
  const lines = [
    `adapter:    ${[a.vendor, a.architecture, a.device].filter((s) => s).join(' / ')}${a.isFallbackAdapter ? ' (fallback adapter)' : ''}`,
    `driver:     ${a.description}`,
    `host:       ${i.host}`,
    `features:   ${i.features.join(' ')}`,
    `subgroups:  adapter sizes ${sg.minSize ?? '?'}..${sg.maxSize ?? '?'}; probe saw ${sg.probedSize === null ? 'no single size' : `${sg.probedSize} lanes${sg.consecutive ? ' in thread order' : ', not in thread order'}`}`,
    'paths:',
    `  warps       ${i.paths.warps}: ${i.paths.warpsReason}`,
    `  fma.rn.f32  ${i.paths.fma === 'fused' ? 'fused: WGSL fma() fuses on this device' : 'emulated: exact integer arithmetic (WGSL fma() does not fuse here)'}`,
    `  f32         ${f32Path(f32, native)}`,
    `  matrices    ${i.paths.matrices}: ${i.paths.matricesReason}`,
    'limits:',
    ...Object.entries(i.limits).map(([k, v]) => `  ${k.padEnd(44)} ${v}`),
  ];
  return `${lines.join('\n')}\n`;
}

function f32Path(facts: unknown, native: readonly string[]): string {
  if (!facts) return 'exact helpers everywhere (the float probe failed)';
  if (native.length === 0) return 'exact helpers everywhere (no probed operation matches PTX on this device)';
  return `native: ${native.join(', ')}; the rest exact helpers`;
}
