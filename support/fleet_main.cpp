// gpu_bench_mpi: gpu_bench on every rank of an MPI job (mpirun -np N, srun), one GPU per rank, and
// one result for the fleet. Each rank runs the gpu_bench beside this executable as a child (one
// OpenCL session per process, and a rank whose child fails, hangs or dies still reports), on the
// GPU of its host that its local rank picks (--device wins), and talks to it over two pipes
// (support/fleet_link.hpp). --fleet=concurrent lines the ranks up before each benchmark samples,
// so the host's shared parts are loaded as in production; --fleet=alone lets one rank run at a
// time; --fleet=both runs alone, then concurrent, and reports each benchmark's slowdown. Rank 0
// gathers every rank's run and writes one JSON (docs/FLEET.md), prints the outliers last, and
// exits with the first failing rank's code, or 6 for an outlier under --fleet_fail_on_outlier.
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "fleet_link.hpp"  // the protocol's names (gpu_bench_mpi links none of the harness)

namespace {

constexpr int kExitUsage = 2, kExitFleetOutlier = 6;
constexpr double kOutlierFloor = 0.05;  // a GPU slower than its fleet's median by more than this

volatile sig_atomic_t g_child = 0;
void forward_signal(int signal) {
  if (g_child > 0) kill(g_child, signal);
}

struct Options {
  std::string mode = "concurrent", out;
  bool fail_on_outlier = false, device_given = false;
  std::vector<std::string> args;  // for gpu_bench
};

struct Result {
  std::string benchmark, metric;
  double seconds = 0, noise = 0, bytes = 0;
};

struct Pass {
  std::string mode, run_json;  // gpu_bench's --benchmark_out text ("" when it wrote none)
  int exit_code = 0;
  std::vector<Result> results;
};

struct Rank {
  int rank = 0, local_rank = 0, device = 0;
  std::string host, fingerprint, device_name, pci_bus_id, gpu_uuid;
  std::vector<Pass> passes;
};

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"";
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

std::vector<std::string> split(const std::string& line, char by) {
  std::vector<std::string> parts;
  std::stringstream in(line);
  std::string part;
  while (std::getline(in, part, by)) parts.push_back(part);
  return parts;
}

std::string self_dir() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return ".";
  path[n] = 0;
  const std::string text = path;
  return text.substr(0, text.rfind('/'));
}

// The output of `gpu_bench ARGS` (stdout), for --list_devices=json.
std::string capture(const std::string& exe, const std::vector<std::string>& args) {
  int fds[2];
  if (pipe(fds) != 0) return "";
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    std::vector<char*> argv{const_cast<char*>(exe.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  close(fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
  close(fds[0]);
  waitpid(pid, nullptr, 0);
  return text;
}

// The device numbers gpu_bench lists on this host: its GPUs, or every device when it has none.
std::vector<int> host_devices(const std::string& exe) {
  const std::string json = capture(exe, {"--list_devices=json"});
  std::vector<int> gpus, all;
  for (size_t at = json.find("{\"number\": "); at != std::string::npos; at = json.find("{\"number\": ", at + 1)) {
    const int n = std::atoi(json.c_str() + at + 11);
    all.push_back(n);
    const size_t type = json.find("\"type\": ", at);
    if (type != std::string::npos && json.compare(type + 8, 5, "\"gpu\"") == 0) gpus.push_back(n);
  }
  return gpus.empty() ? all : gpus;
}

// One pass of gpu_bench on this rank. Concurrent: one MPI_Allreduce per benchmark, every rank
// taking part until every rank's child has finished (a rank whose child ended joins with 0).
Pass run_pass(const std::string& exe, const Options& o, Rank& me, int ranks, const std::string& mode, const std::string& out) {
  Pass pass;
  pass.mode = mode;
  int to_child[2], from_child[2];
  if (pipe(to_child) != 0 || pipe(from_child) != 0) {
    pass.exit_code = 1;
    return pass;
  }
  std::vector<std::string> args = o.args;
  if (!o.device_given) args.push_back("--device=" + std::to_string(me.device));
  args.push_back("--benchmark_out=" + out);
  args.push_back("--benchmark_out_format=json");
  const char* slow = std::getenv("GPU_BENCH_TEST_SLOW_RANK");  // "RANK:FACTOR", tests only
  const char* kill_rank = std::getenv("GPU_BENCH_TEST_KILL_RANK");  // a rank whose child is killed
  const bool slowed = slow && std::atoi(slow) == me.rank && std::strchr(slow, ':');
  const bool killed = kill_rank && *kill_rank && std::atoi(kill_rank) == me.rank;
  if (mode == "alone" && me.rank > 0) MPI_Recv(nullptr, 0, MPI_BYTE, me.rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);  // a signal to the job reaches gpu_bench once, forwarded (a second one ends it at once)
    close(to_child[1]);
    close(from_child[0]);
    const std::string fds = std::to_string(to_child[0]) + "," + std::to_string(from_child[1]);
    setenv(gb::kFleetFdsVariable, fds.c_str(), 1);
    if (slowed) setenv(gb::kSlowFactorVariable, std::strchr(slow, ':') + 1, 1);
    if (me.rank != 0 && std::getenv("GPU_BENCH_FLEET_ALL_CONSOLES") == nullptr) {
      const int null = open("/dev/null", O_WRONLY);  // one console table, rank 0's; warnings from all
      if (null >= 0) dup2(null, 1);
    }
    std::vector<char*> argv{const_cast<char*>(exe.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(exe.c_str(), argv.data());
    std::fprintf(stderr, "gpu_bench_mpi: cannot run %s: %s\n", exe.c_str(), std::strerror(errno));
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  g_child = pid;
  FILE* lines = fdopen(from_child[0], "r");
  bool finished = false;
  auto next_ready = [&]() -> bool {  // reads until the child waits to sample (true) or ends (false)
    char* line = nullptr;
    size_t size = 0;
    bool ready = false;
    while (!ready && getline(&line, &size, lines) > 0) {
      auto parts = split(std::string(line, std::strcspn(line, "\n")), '\t');
      if (parts[0] == gb::kFleetDevice && parts.size() >= 3) {
        parts.resize(5);  // a device without a PCI bus id or GPU id ends its line with empty fields
        me.fingerprint = parts[1], me.device_name = parts[2], me.pci_bus_id = parts[3], me.gpu_uuid = parts[4];
      } else if (parts[0] == gb::kFleetResult && parts.size() >= 6) {
        pass.results.push_back({parts[1], parts[2], std::atof(parts[3].c_str()), std::atof(parts[4].c_str()),
                                std::atof(parts[5].c_str())});
        if (killed) kill(pid, SIGKILL);
      } else if (parts[0] == gb::kFleetReady) {
        ready = true;
      }
    }
    free(line);
    return ready;
  };
  for (;;) {
    const bool ready = !finished && next_ready();
    finished = finished || !ready;
    if (mode == "concurrent") {
      int mine = ready ? 1 : 0, waiting = 0;
      MPI_Allreduce(&mine, &waiting, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      if (ready && write(to_child[1], gb::kFleetGo, 3) != 3) finished = true;
      if (waiting == 0) break;
    } else {
      if (!ready) break;
      if (write(to_child[1], gb::kFleetGo, 3) != 3) finished = true;
    }
  }
  fclose(lines);
  close(to_child[1]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_child = 0;
  pass.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream file(out);
  pass.run_json.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  std::remove(out.c_str());
  if (mode == "alone" && me.rank + 1 < ranks) MPI_Send(nullptr, 0, MPI_BYTE, me.rank + 1, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  return pass;
}

// A rank as text for the gather: a header line, then its passes' results and runs.
std::string pack(const Rank& r) {
  std::string text = std::to_string(r.rank) + "\t" + std::to_string(r.local_rank) + "\t" + std::to_string(r.device) +
                     "\t" + r.host + "\t" + r.fingerprint + "\t" + r.device_name + "\t" + r.pci_bus_id + "\t" + r.gpu_uuid + "\n";
  for (const auto& p : r.passes) {
    text += "pass\t" + p.mode + "\t" + std::to_string(p.exit_code) + "\t" + std::to_string(p.results.size()) + "\t" +
            std::to_string(p.run_json.size()) + "\n";
    for (const auto& x : p.results)
      text += x.benchmark + "\t" + x.metric + "\t" + number(x.seconds) + "\t" + number(x.noise) + "\t" + number(x.bytes) + "\n";
    text += p.run_json;
  }
  return text;
}

Rank unpack(const std::string& text) {
  Rank r;
  size_t at = text.find('\n');
  auto head = split(text.substr(0, at), '\t');
  head.resize(8);
  r.rank = std::atoi(head[0].c_str()), r.local_rank = std::atoi(head[1].c_str()), r.device = std::atoi(head[2].c_str());
  r.host = head[3], r.fingerprint = head[4], r.device_name = head[5], r.pci_bus_id = head[6], r.gpu_uuid = head[7];
  ++at;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    auto p = split(text.substr(at, end - at), '\t');
    at = end + 1;
    if (p.size() < 5 || p[0] != "pass") break;
    Pass pass;
    pass.mode = p[1], pass.exit_code = std::atoi(p[2].c_str());
    const size_t results = std::stoul(p[3]), bytes = std::stoul(p[4]);
    for (size_t i = 0; i < results; ++i) {
      const size_t e = text.find('\n', at);
      auto x = split(text.substr(at, e - at), '\t');
      at = e + 1;
      x.resize(5);
      pass.results.push_back({x[0], x[1], std::atof(x[2].c_str()), std::atof(x[3].c_str()), std::atof(x[4].c_str())});
    }
    pass.run_json = text.substr(at, bytes);
    at += bytes;
    r.passes.push_back(pass);
  }
  return r;
}

std::string status_of(int code) {
  if (code == 0) return "ok";
  if (code == 130 || code == 143 || code == 129)
    return "stopped by signal " + std::to_string(code - 128) + " (its finished benchmarks kept)";
  if (code > 128) return "died (signal " + std::to_string(code - 128) + ")";
  if (code == 5) return "hung (--kernel_timeout)";
  return "failed (exit " + std::to_string(code) + ")";
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Outlier {
  const Rank* rank;
  std::string mode, benchmark;
  double seconds, median_seconds;
};

// Rank 0: the fleet's statistics, the file and the console's outlier table. Returns the exit code.
int report(const std::vector<Rank>& ranks, const Options& o) {
  std::string fleet_benchmarks, runs, outliers_json, rank_list;
  std::vector<Outlier> outliers;
  int failed_code = 0;
  std::vector<std::string> failed;
  for (const auto& r : ranks) {
    rank_list += std::string(rank_list.empty() ? "" : ",\n   ") + "{\"rank\": " + std::to_string(r.rank) +
                 ", \"host\": " + json_string(r.host) + ", \"local_rank\": " + std::to_string(r.local_rank) +
                 ", \"device_index\": " + std::to_string(r.device) + ", \"device\": " + json_string(r.device_name) +
                 ", \"pci_bus_id\": " + json_string(r.pci_bus_id) + ", \"gpu_uuid\": " + json_string(r.gpu_uuid) +
                 ", \"device_fingerprint\": " + json_string(r.fingerprint) + ", \"status\": {";
    for (size_t i = 0; i < r.passes.size(); ++i) {
      const auto& p = r.passes[i];
      rank_list += (i ? ", " : "") + json_string(p.mode) + ": " + json_string(status_of(p.exit_code));
      if (p.exit_code != 0) {
        if (!failed_code) failed_code = p.exit_code;
        failed.push_back("rank " + std::to_string(r.rank) + " (" + r.host + ", device " + std::to_string(r.device) +
                         ", " + p.mode + "): " + status_of(p.exit_code));
      }
      runs += std::string(runs.empty() ? "" : ",\n  ") + "{\"rank\": " + std::to_string(r.rank) + ", \"host\": " +
              json_string(r.host) + ", \"device_index\": " + std::to_string(r.device) + ", \"mode\": " +
              json_string(p.mode) + ", \"exit_code\": " + std::to_string(p.exit_code) + ", \"run\": " +
              (p.run_json.find_first_not_of(" \n") == std::string::npos ? "null" : p.run_json) + "}";
    }
    rank_list += "}}";
  }
  // Per mode, benchmark and fingerprint: the ranks' times per unit.
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<std::pair<const Rank*, const Result*>>> groups;
  for (const auto& r : ranks)
    for (const auto& p : r.passes)
      for (const auto& x : p.results) groups[{p.mode, x.benchmark, r.fingerprint}].push_back({&r, &x});
  for (const auto& [key, members] : groups) {
    const auto& [mode, benchmark, fingerprint] = key;
    std::vector<double> seconds;
    double aggregate = 0;
    for (const auto& [r, x] : members) {
      seconds.push_back(x->seconds);
      if (x->bytes > 0 && x->seconds > 0) aggregate += x->bytes / x->seconds;
    }
    const double mid = median(seconds);
    const double lo = *std::min_element(seconds.begin(), seconds.end()), hi = *std::max_element(seconds.begin(), seconds.end());
    std::string slow_ranks;
    for (const auto& [r, x] : members)
      if (mid > 0 && x->seconds > mid * (1 + std::max(kOutlierFloor, 3 * x->noise))) {
        outliers.push_back({r, mode, benchmark, x->seconds, mid});
        slow_ranks += (slow_ranks.empty() ? "" : ", ") + std::to_string(r->rank);
      }
    std::string entry = "{\"name\": " + json_string(benchmark) + ", \"mode\": " + json_string(mode) +
                        ", \"device_fingerprint\": " + json_string(fingerprint) + ", \"metric\": " +
                        json_string(members.front().second->metric) + ", \"ranks\": " + std::to_string(members.size()) +
                        ", \"median_seconds\": " + number(mid) + ", \"min_seconds\": " + number(lo) +
                        ", \"max_seconds\": " + number(hi) + ", \"spread\": " + number(mid > 0 ? (hi - lo) / mid : 0);
    if (aggregate > 0 && mode == "concurrent") entry += ", \"aggregate_bytes_per_second\": " + number(aggregate);
    if (mode == "concurrent") {  // against the same benchmark alone, where --fleet=both ran it
      auto alone = groups.find({"alone", benchmark, fingerprint});
      if (alone != groups.end()) {
        std::vector<double> a;
        double single = 0;
        for (const auto& [r, x] : alone->second) a.push_back(x->seconds);
        for (const auto& [r, x] : alone->second)
          if (x->bytes > 0 && x->seconds > 0) single = std::max(single, x->bytes / x->seconds);
        entry += ", \"slowdown\": " + number(mid / median(a));
        if (single > 0) entry += ", \"alone_bytes_per_second\": " + number(single);
      }
    }
    entry += ", \"outlier_ranks\": [" + slow_ranks + "]}";
    fleet_benchmarks += std::string(fleet_benchmarks.empty() ? "" : ",\n   ") + entry;
  }
  for (const auto& x : outliers)
    outliers_json += std::string(outliers_json.empty() ? "" : ",\n   ") + "{\"rank\": " + std::to_string(x.rank->rank) +
                     ", \"host\": " + json_string(x.rank->host) + ", \"device_index\": " + std::to_string(x.rank->device) +
                     ", \"pci_bus_id\": " + json_string(x.rank->pci_bus_id) + ", \"gpu_uuid\": " +
                     json_string(x.rank->gpu_uuid) + ", \"mode\": " + json_string(x.mode) +
                     ", \"benchmark\": " + json_string(x.benchmark) + ", \"seconds\": " + number(x.seconds) +
                     ", \"median_seconds\": " + number(x.median_seconds) + ", \"slower_by\": " +
                     number(x.seconds / x.median_seconds - 1) + "}";
  std::string failed_json;
  for (const auto& f : failed) failed_json += std::string(failed_json.empty() ? "" : ", ") + json_string(f);
  const std::string text = "{\n \"format\": \"gpu-bench-fleet\",\n \"fleet\": {\"mode\": " + json_string(o.mode) +
                           ", \"outlier_rule\": \"slower than the median of its fingerprint by more than max(5%, 3 x its noise)\"" +
                           ",\n  \"ranks\": [" + rank_list + "],\n  \"benchmarks\": [" + fleet_benchmarks +
                           "],\n  \"outliers\": [" + outliers_json + "],\n  \"failed_ranks\": [" + failed_json +
                           "]},\n \"runs\": [" + runs + "]\n}\n";
  if (!o.out.empty()) {
    const std::string tmp = o.out + ".tmp";
    std::ofstream file(tmp);
    file << text;
    file.close();
    if (!file || std::rename(tmp.c_str(), o.out.c_str()) != 0) {
      std::fprintf(stderr, "gpu_bench_mpi: error: could not write %s\n", o.out.c_str());
      return 1;
    }
  }
  std::printf("\nfleet: %zu rank(s), mode %s; %zu outlier(s)%s\n", ranks.size(), o.mode.c_str(), outliers.size(),
              outliers.empty() ? "" : " (slower than the fleet median by more than max(5%, 3x noise)):");
  if (!outliers.empty()) {
    std::printf("%-5s %-16s %-6s %-16s %-10s %-9s %s\n", "rank", "host", "device", "pci bus id", "mode", "slower", "benchmark");
    for (const auto& x : outliers)
      std::printf("%-5d %-16s %-6d %-16s %-10s %8.1f%% %s\n", x.rank->rank, x.rank->host.c_str(), x.rank->device,
                  x.rank->pci_bus_id.c_str(), x.mode.c_str(), 100 * (x.seconds / x.median_seconds - 1), x.benchmark.c_str());
  }
  for (const auto& f : failed) std::printf("failed: %s\n", f.c_str());
  std::fflush(stdout);
  if (failed_code) return failed_code;
  return o.fail_on_outlier && !outliers.empty() ? kExitFleetOutlier : 0;
}

int usage(int rank, const std::string& why) {
  if (rank == 0) std::fprintf(stderr, "gpu_bench_mpi: error: %s (see docs/FLEET.md)\n", why.c_str());
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Options o;
  int code = 0;
  for (int i = 1; i < argc && !code; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--fleet=", 0) == 0) {
      o.mode = a.substr(8);
      if (o.mode != "concurrent" && o.mode != "alone" && o.mode != "both")
        code = usage(rank, "--fleet: expected concurrent, alone or both, got '" + o.mode + "'");
    } else if (a == "--fleet_fail_on_outlier") {
      o.fail_on_outlier = true;
    } else if (a.rfind("--benchmark_out=", 0) == 0) {
      o.out = a.substr(16);
    } else if (a.rfind("--benchmark_out_format=", 0) == 0) {
      if (a != "--benchmark_out_format=json") code = usage(rank, "--benchmark_out_format: a fleet's file is JSON");
    } else {
      o.device_given = o.device_given || a.rfind("--device=", 0) == 0 || (a.size() > 1 && a[0] == '-' && std::isdigit(a[1]));
      o.args.push_back(a);
    }
  }
  if (!code && !o.out.empty() && rank == 0) {
    std::ofstream probe(o.out + ".tmp");
    if (!probe) code = usage(rank, "--benchmark_out=" + o.out + ": cannot be written");
    probe.close();
    std::remove((o.out + ".tmp").c_str());
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (code) {
    MPI_Finalize();
    return code;
  }
  signal(SIGINT, forward_signal);
  signal(SIGTERM, forward_signal);
  signal(SIGHUP, forward_signal);

  MPI_Comm host_comm;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host_comm);
  Rank me;
  me.rank = rank;
  MPI_Comm_rank(host_comm, &me.local_rank);
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  me.host = host;
  const std::string exe = self_dir() + "/gpu_bench";
  const auto devices = host_devices(exe);
  me.device = devices.empty() ? 1 : devices[static_cast<size_t>(me.local_rank) % devices.size()];
  const char* tmp = std::getenv("TMPDIR");
  const std::string out = std::string(tmp && *tmp ? tmp : "/tmp") + "/gpu_bench_mpi." + std::to_string(getpid()) + ".json";
  if (o.mode == "alone" || o.mode == "both") me.passes.push_back(run_pass(exe, o, me, size, "alone", out));
  if (o.mode == "concurrent" || o.mode == "both") me.passes.push_back(run_pass(exe, o, me, size, "concurrent", out));

  // Every rank's record to rank 0.
  const std::string packed = pack(me);
  int length = static_cast<int>(packed.size());
  std::vector<int> lengths(static_cast<size_t>(size)), offsets(static_cast<size_t>(size));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (rank == 0) {
    for (int i = 0, at = 0; i < size; at += lengths[static_cast<size_t>(i)], ++i) offsets[static_cast<size_t>(i)] = at;
    all.resize(static_cast<size_t>(offsets.back() + lengths.back()));
  }
  MPI_Gatherv(packed.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::vector<Rank> ranks;
    for (int i = 0; i < size; ++i)
      ranks.push_back(unpack(all.substr(static_cast<size_t>(offsets[static_cast<size_t>(i)]), static_cast<size_t>(lengths[static_cast<size_t>(i)]))));
    code = report(ranks, o);
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Comm_free(&host_comm);
  MPI_Finalize();
  return code;
}
