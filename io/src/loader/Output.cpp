/// @file Output.cpp
/// The `output` section: the CSV file and the output interval.

#include "Loader.h"

namespace mbdae::io::loader {

void Loader::output(const YAML::Node& n) {
  Map o(*this, n, "output", {"file", "every"});
  if (!o.valid()) return;
  if (const Entry* e = o.find("file")) {
    if (auto f = string(e->value, o.path("file"))) {
      if (f->empty()) error(e->value, o.path("file"), "the file name must not be empty");
      else m_.output.file = *f;
    }
  }
  if (const Entry* e = o.find("every")) {
    every_given_ = true;
    if (auto x = number(e->value, o.path("every"), positive())) {
      m_.output.every = *x;
      if (have_end_time_ && m_.settings.t_end / *x > max_output_rows)
        error(e->value, o.path("every"), "end_time / every = " + fmt_num(m_.settings.t_end / *x) +
                                             " output rows; at most 1e7 are allowed");
    }
  }
}

}  // namespace mbdae::io::loader
