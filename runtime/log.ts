/**
 * Where the runtime reports what the driver tells it beyond errors: the adapter a context runs
 * on, device loss and uncaptured errors as they happen (they also become sticky PtxErrors,
 * thrown at the next call), and the WGSL compiler's warnings. Nothing is printed unless the
 * caller passes a Logger (`createContext({ log })`, `runPtx(..., { log })`, CLI `--verbose`).
 *
 * Dawn on Node also writes two lines to stderr itself while discovering adapters
 * ("maxDynamicUniformBuffersPerPipelineLayout artificially reduced ..." and the storage one, on
 * drivers that report more than 16 dynamic buffers: lavapipe, RADV). They come from Dawn's
 * native code (`dawn::WarningLog()` in `NormalizeLimits`, an fprintf to stderr during the first
 * `requestAdapter`, before any device or limit is requested) with no callback, toggle or limit
 * that avoids them, so no library in that process can route them; the CLI runs device work in
 * a child process whose stderr it keeps (src/cli/supervise.ts).
 */
export type LogLevel = 'info' | 'warning' | 'error';

export type Logger = (level: LogLevel, message: string) => void;
