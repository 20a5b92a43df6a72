// Progress of a run on stderr: "[i/N] name, ETA m:ss" as each selected benchmark starts. On a
// terminal it is one line redrawn in place; otherwise plain lines. --progress=0 silences it.
#pragma once
#include <string>

namespace gb {

class Progress {
 public:
  void start(int total, bool enabled);
  // A benchmark starts (repetitions of the same name count once).
  void begin(const std::string& name);
  // Prints a message line on stderr without garbling the progress line.
  void note(const std::string& line);
  // Clears the progress line before other output goes to the terminal.
  void clear();

 private:
  bool enabled_ = false, tty_ = false, drawn_ = false;
  int total_ = 0, done_ = 0;
  std::string last_;
  double started_ = 0;
};

Progress& progress();

}  // namespace gb
