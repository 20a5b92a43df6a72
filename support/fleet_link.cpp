// See fleet_link.hpp. The pipes are blocking: a launcher that stops answering stops the rank,
// whose watchdog (--kernel_timeout) does not cover this wait.
#include "fleet_link.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "interrupt.hpp"

namespace gb {

namespace {

struct Link {
  int in = -1, out = -1;
};

const Link& link() {
  static const Link l = [] {
    Link parsed;
    const char* fds = std::getenv(kFleetFdsVariable);
    if (fds && std::sscanf(fds, "%d,%d", &parsed.in, &parsed.out) != 2) parsed = Link{};
    return parsed;
  }();
  return l;
}

void send(const std::string& line) {
  if (!in_fleet()) return;
  const std::string text = line + "\n";
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(link().out, text.data() + done, text.size() - done);
    if (n <= 0) throw std::runtime_error("fleet: the launcher's pipe closed");
    done += static_cast<size_t>(n);
  }
}

}  // namespace

bool in_fleet() { return link().out >= 0; }

void fleet_send_device(const std::string& fingerprint, const std::string& device, const std::string& pci_bus_id,
                       const std::string& gpu_uuid) {
  send(std::string(kFleetDevice) + "\t" + fingerprint + "\t" + device + "\t" + pci_bus_id + "\t" + gpu_uuid);
}

void fleet_wait_to_sample(const std::string& benchmark) {
  if (!in_fleet()) return;
  send(std::string(kFleetReady) + "\t" + benchmark);
  char c = 0;
  do {  // "go\n"; a stop signal ends the wait, and the harness then abandons the benchmark
    const ssize_t n = read(link().in, &c, 1);
    if (n < 0 && errno == EINTR) {
      if (stop_requested()) return;
      continue;
    }
    if (n != 1) throw std::runtime_error("fleet: the launcher's pipe closed");
  } while (c != '\n');
}

void fleet_send_result(const std::string& benchmark, const std::string& primary_metric, double unit_seconds,
                       double noise, double bytes_per_unit) {
  char numbers[96];
  std::snprintf(numbers, sizeof numbers, "\t%.9g\t%.6g\t%.9g", unit_seconds, noise, bytes_per_unit);
  send(std::string(kFleetResult) + "\t" + benchmark + "\t" + primary_metric + numbers);
}

double fleet_test_slow_factor() {
  static const double factor = [] {
    const char* text = std::getenv(kSlowFactorVariable);
    const double f = text ? std::strtod(text, nullptr) : 1.0;
    return f > 0 ? f : 1.0;
  }();
  return factor;
}

}  // namespace gb
