// The device's copy bandwidth (read + write bytes per second of a large float4 copy), measured once
// per process and device: the roofline that memory-bound cases report their `copy_fraction` against.
#pragma once

namespace gb {

// Bytes per second (read + written) of the best of a few batches of a float4 copy far larger than
// the last-level cache. Measured on first use with the open session's device, then cached.
double device_copy_bandwidth();

}  // namespace gb
