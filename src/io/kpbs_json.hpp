// JSON form of KPBS instances and schedules (the `ringsim kpbs` contract of docs/design.md).
//
// Input, times given directly:
//   {"k": 3, "beta": 1.0, "matrix": [[...], ...], "algorithm": "ggp"}
// matrix[i][j] >= 0 is the time to send sender i's data for receiver j at full speed (0: none).
// Input, bytes and the two clusters of the KPBS paper (Section 1.1):
//   {"beta": 1.0, "bytes": [[...], ...], "clusters": {"b1": .., "b2": .., "bb": .., "v1": .., "v2": ..}}
// b1 / b2: bandwidth between a node of cluster 1 / 2 and its switch, bb: backbone bandwidth
// (bytes per time unit, e.g. bytes/s), v1 / v2: number of nodes (default: the matrix's rows /
// columns). Then k = min(v1, v2, floor(bb / min(b1, b2, bb))) and the time of an entry is
// bytes / min(b1, b2, bb). "clusters" may also come with "matrix" (times) to derive k; "k" and
// "clusters" are exclusive. beta is in the same time unit as the times.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/kpbs.hpp"

namespace ringsim::io {

struct KpbsRequest {
  KpbsInstance instance;
  std::string scheduler = "ggp";
  // min(b1, b2, bb) when "clusters" was given: bytes of an amount = amount * unit_bandwidth.
  std::optional<double> unit_bandwidth;
};

// The most senders (rows) and receivers (entries of a row) of an instance read from a file.
constexpr std::size_t kMaxKpbsSide = 5000;

// The instance document in FILE, or standard input for "-" (for parse_kpbs_request): a matrix
// beyond kMaxKpbsSide is refused while the text is scanned, before it is held as JSON.
nlohmann::json read_kpbs_document(const std::string& path);

// Throws InputError naming the problem: missing or unknown keys, wrong types, an empty, ragged or
// negative matrix, k < 1, beta < 0, non-positive bandwidths, v1 / v2 below the matrix's size.
KpbsRequest parse_kpbs_request(const nlohmann::json& doc);

// Output: algorithm, time, lower_bound, kpbs_feasible, notes (when any) and steps:
// [{"duration", "comms": [{"from", "to", "amount"}]}].
nlohmann::json kpbs_schedule_to_json(const KpbsSchedule& schedule);

}  // namespace ringsim::io
