// Hand-written WGSL warp reduction (the baseline of bench/warp-reduce.mjs): what a WGSL author
// writes for the same kernel on a device with 32-lane subgroups.
enable subgroups;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(subgroup_invocation_id) lane: u32) {
  let i = gid.x + gid.y * groups.x * 256u;
  let v = subgroupAdd(input[i]);
  if (lane == 0u) { output[i >> 5u] = v; }
}

// The same reduction as warp_reduce_shfl written by hand: five subgroupShuffleDown steps.
@compute @workgroup_size(256)
fn main_shfl(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
             @builtin(subgroup_invocation_id) lane: u32) {
  let i = gid.x + gid.y * groups.x * 256u;
  var v = input[i];
  v += subgroupShuffleDown(v, 16u);
  v += subgroupShuffleDown(v, 8u);
  v += subgroupShuffleDown(v, 4u);
  v += subgroupShuffleDown(v, 2u);
  v += subgroupShuffleDown(v, 1u);
  if (lane == 0u) { output[i >> 5u] = v; }
}
