// ContextOptions.log: the runtime reports the adapter and the driver's errors there as they
// happen, and prints nothing itself.
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/api.js';
import { getGpu, releaseDefaultDevice, requestKernelDevice } from '../../runtime/device.js';
import type { LogLevel } from '../../runtime/log.js';

afterAll(async () => {
  await releaseDefaultDevice();
});

describe('ContextOptions.log', () => {
  it('receives the adapter, uncaptured device errors, and not the device being destroyed on purpose', async () => {
    const adapter = await (await getGpu()).requestAdapter();
    const device = await requestKernelDevice(adapter!);
    const messages: [LogLevel, string][] = [];
    const ctx = await createContext({ device, log: (level, message) => void messages.push([level, message]) });
    expect(messages[0]?.[0]).toBe('info');
    expect(messages[0]?.[1]).toMatch(/^adapter: \S/);
    device.createBuffer({ size: 4, usage: 0 }); // invalid: no usage, outside any error scope
    for (let i = 0; i < 100 && !messages.some(([level]) => level === 'error'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(messages.find(([level]) => level === 'error')?.[1]).toMatch(/^WebGPU error: /);
    await expect(ctx.synchronize()).rejects.toThrow(/WebGPU error/);
    const before = messages.length;
    device.destroy();
    await device.lost;
    expect(messages.length).toBe(before);
  });
});
