// SIGINT, SIGTERM and SIGHUP ask the run to stop: the harness abandons the benchmark in progress,
// skips the rest, and main writes what finished. A second signal ends the process at once
// (the output file is only ever replaced by a rename, so no half-written file is left).
#pragma once

namespace gb {

void install_interrupt_handlers();
bool stop_requested();
int stop_signal();  // the signal that asked, or 0
// The documented exit code for a stop by `signal`: 128 + signal (130 SIGINT, 143 SIGTERM, 129 SIGHUP).
int exit_code_for_signal(int signal);

}  // namespace gb
