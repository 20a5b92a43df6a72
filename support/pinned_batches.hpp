// Batches taken from an earlier run (--batches_from): each benchmark that file holds samples with
// the batch it ended with there, neither calibrated nor grown, so that two runs time the same
// number of units per sample (runs that picked different batches of short units time different
// gaps between them: docs/REPRODUCIBILITY.md).
#pragma once
#include <map>
#include <string>

namespace gb {

// {benchmark name (without /manual_time): batch} from a gpu_bench output file of `device`; throws
// std::runtime_error with a one-line reason when the file cannot be read, is not a gpu_bench run,
// or is a run of another device.
std::map<std::string, int> read_batches(const std::string& path, const std::string& device);

// The device a gpu_bench output file names in its context; throws as read_batches does.
std::string run_file_device(const std::string& path);

}  // namespace gb
