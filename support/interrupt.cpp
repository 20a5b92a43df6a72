// Signal handlers that only record the request.
#include "interrupt.hpp"

#include <csignal>
#include <initializer_list>

namespace gb {

static volatile std::sig_atomic_t g_signal = 0;

extern "C" void gb_on_stop_signal(int sig) {
  if (g_signal != 0) {  // asked twice: stop now
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  g_signal = sig;
}

void install_interrupt_handlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, gb_on_stop_signal);
}

bool stop_requested() { return g_signal != 0; }
int stop_signal() { return g_signal; }
int exit_code_for_signal(int signal) { return 128 + signal; }

}  // namespace gb
