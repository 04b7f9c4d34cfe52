#pragma once
// `mbdae plot` with several results (apps/plot.cpp).

#include <string>
#include <vector>

namespace mbdae::cli {

/// `mbdae plot A.csv [B.csv ...] [--columns NAME ...]`: several results overlaid, one panel per
/// unit; `columns`: column or sensor names (empty: every column, or with several results the
/// columns they all have). Exit code as the other commands (commands.h).
int plot_command(const std::vector<std::string>& csvs, const std::string& prefix,
                 const std::vector<std::string>& columns, bool quiet = false);

}  // namespace mbdae::cli
