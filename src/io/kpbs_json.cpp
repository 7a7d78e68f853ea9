#include "io/kpbs_json.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "io/json_input.hpp"
#include "model/errors.hpp"

namespace ringsim::io {
namespace {

double number_field(const nlohmann::json& obj, const char* key, const std::string& name) {
  const auto it = obj.find(key);
  if (it == obj.end()) throw InputError("missing field '" + name + "'");
  if (!it->is_number()) throw InputError("'" + name + "' must be a number");
  const double v = it->get<double>();
  if (!std::isfinite(v)) throw InputError("'" + name + "' must be finite");
  return v;
}

// An integer >= 1 (JSON 3.0 is a fractional number, as for the redistribution contract).
std::size_t count_field(const nlohmann::json& value, const std::string& name) {
  if (value.is_number_unsigned()) {
    const auto v = value.get<std::uint64_t>();
    if (v < 1) throw InputError("'" + name + "' must be at least 1");
    return static_cast<std::size_t>(std::min<std::uint64_t>(v, std::numeric_limits<std::size_t>::max()));
  }
  if (value.is_number_integer()) throw InputError("'" + name + "' must be at least 1");  // negative
  throw InputError("'" + name + "' must be an integer");
}

std::vector<std::vector<double>> read_matrix(const nlohmann::json& m, const std::string& name) {
  if (!m.is_array()) throw InputError("'" + name + "' must be an array of rows (arrays of numbers)");
  if (m.empty()) throw InputError("'" + name + "' is empty (no sender)");
  std::vector<std::vector<double>> rows;
  rows.reserve(m.size());
  for (std::size_t i = 0; i < m.size(); ++i) {
    const auto& row = m[i];
    const std::string where = name + "[" + std::to_string(i) + "]";
    if (!row.is_array()) throw InputError(where + " must be an array of numbers");
    if (row.empty()) throw InputError(where + " is empty (no receiver)");
    if (row.size() != m[0].size())
      throw InputError("'" + name + "' is ragged: row " + std::to_string(i) + " has " + std::to_string(row.size()) +
                       " entries, row 0 has " + std::to_string(m[0].size()));
    std::vector<double> values(row.size());
    for (std::size_t j = 0; j < row.size(); ++j) {
      const std::string cell = where + "[" + std::to_string(j) + "]";
      if (!row[j].is_number()) throw InputError(cell + " must be a number");
      values[j] = row[j].get<double>();
      if (!std::isfinite(values[j])) throw InputError(cell + " must be finite");
      if (values[j] < 0) throw InputError(cell + " is negative");
    }
    rows.push_back(std::move(values));
  }
  return rows;
}

// Counts the matrix's rows and the entries of each row as the text is scanned, and stops at the
// limit: the JSON tree (about 16 bytes per number, and a vector per row) is built only after.
class MatrixShape : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit MatrixShape(std::string where) : where_(std::move(where)) {}
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    value();
    ++depth_;
    return true;
  }
  bool key(string_t& k) override {
    if (depth_ == 1) key_ = k;
    return true;
  }
  bool end_object() override {
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    value();
    if (depth_ == 2 && in_matrix()) entries_ = 0;
    ++depth_;
    return true;
  }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;  // the parse proper reports it
  }

 private:
  bool in_matrix() const { return key_ == "matrix" || key_ == "bytes"; }
  bool value() {
    if (!in_matrix()) return true;
    if (depth_ == 2 && ++rows_ > kMaxKpbsSide)
      throw InputError(where_ + ": '" + key_ + "' has more than " + std::to_string(kMaxKpbsSide) + " rows (senders), " +
                       limit_reason());
    if (depth_ == 3 && ++entries_ > kMaxKpbsSide)
      throw InputError(where_ + ": '" + key_ + "'[" + std::to_string(rows_ - 1) + "] has more than " +
                       std::to_string(kMaxKpbsSide) + " entries (receivers), " + limit_reason());
    return true;
  }
  static std::string limit_reason() {
    return "the most ringsim plans (the matrix is held whole, and the planners' bipartite graphs grow with it)";
  }

  std::string where_;
  std::string key_;
  int depth_ = 0;
  std::size_t rows_ = 0, entries_ = 0;
};

}  // namespace

nlohmann::json read_kpbs_document(const std::string& path) {
  const std::string text = read_text(path);
  const std::string where = where_of(path);
  MatrixShape shape(where);
  nlohmann::json::sax_parse(text, &shape, nlohmann::json::input_format_t::json, false);
  return parse_json_text(text, where);
}

KpbsRequest parse_kpbs_request(const nlohmann::json& doc) {
  if (!doc.is_object()) throw InputError("the instance must be a JSON object");
  require_known_keys(doc, {"k", "beta", "matrix", "bytes", "clusters", "algorithm"}, "the instance");
  KpbsRequest req;
  KpbsInstance& inst = req.instance;

  const bool has_matrix = doc.contains("matrix"), has_bytes = doc.contains("bytes");
  const bool has_clusters = doc.contains("clusters"), has_k = doc.contains("k");
  if (has_matrix && has_bytes) throw InputError("give either 'matrix' (times) or 'bytes' (with 'clusters'), not both");
  if (!has_matrix && !has_bytes) throw InputError("missing field 'matrix' (or 'bytes' with 'clusters')");
  if (has_bytes && !has_clusters) throw InputError("'bytes' needs 'clusters' (b1, b2, bb) to turn bytes into time");
  if (has_k && has_clusters) throw InputError("give either 'k' or 'clusters' (which determines k), not both");
  if (!has_k && !has_clusters) throw InputError("missing field 'k' (or 'clusters' to derive it)");

  inst.times = read_matrix(doc[has_matrix ? "matrix" : "bytes"], has_matrix ? "matrix" : "bytes");
  inst.beta = number_field(doc, "beta", "beta");
  if (inst.beta < 0) throw InputError("'beta' must be >= 0");
  if (has_k) inst.k = count_field(doc["k"], "k");

  if (has_clusters) {
    const auto& c = doc["clusters"];
    if (!c.is_object()) throw InputError("'clusters' must be an object with b1, b2, bb (and optionally v1, v2)");
    require_known_keys(c, {"b1", "b2", "bb", "v1", "v2"}, "'clusters'");
    const double b1 = number_field(c, "b1", "clusters.b1"), b2 = number_field(c, "b2", "clusters.b2"),
                 bb = number_field(c, "bb", "clusters.bb");
    for (const auto& [v, name] : {std::pair{b1, "b1"}, std::pair{b2, "b2"}, std::pair{bb, "bb"}})
      if (v <= 0) throw InputError(std::string("'clusters.") + name + "' must be positive");
    std::size_t v1 = inst.times.size(), v2 = inst.times.front().size();
    if (c.contains("v1")) v1 = count_field(c["v1"], "clusters.v1");
    if (c.contains("v2")) v2 = count_field(c["v2"], "clusters.v2");
    if (v1 < inst.times.size())
      throw InputError("'clusters.v1' is " + std::to_string(v1) + ", fewer than the " +
                       std::to_string(inst.times.size()) + " senders (rows) of the matrix");
    if (v2 < inst.times.front().size())
      throw InputError("'clusters.v2' is " + std::to_string(v2) + ", fewer than the " +
                       std::to_string(inst.times.front().size()) + " receivers (columns) of the matrix");
    const double unit = std::min({b1, b2, bb});
    const double connections = std::floor(bb / unit);  // >= 1
    inst.k = std::min({v1, v2, connections >= 1e18 ? std::numeric_limits<std::size_t>::max()
                                                   : static_cast<std::size_t>(connections)});
    inst.sender_capacity = b1 / unit;
    inst.receiver_capacity = b2 / unit;
    inst.backbone_capacity = bb / unit;
    req.unit_bandwidth = unit;
    if (has_bytes)
      for (auto& row : inst.times)
        for (double& x : row) x /= unit;
  }

  if (doc.contains("algorithm")) {
    if (!doc["algorithm"].is_string()) throw InputError("'algorithm' must be a string");
    req.scheduler = doc["algorithm"].get<std::string>();
  }
  validate(inst);
  return req;
}

nlohmann::json kpbs_schedule_to_json(const KpbsSchedule& schedule) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : schedule.steps) {
    nlohmann::json comms = nlohmann::json::array();
    for (const auto& c : s.comms) comms.push_back({{"from", c.from}, {"to", c.to}, {"amount", c.amount}});
    steps.push_back({{"duration", s.duration}, {"comms", std::move(comms)}});
  }
  nlohmann::json out = {{"algorithm", schedule.scheduler},
                        {"time", schedule.time},
                        {"lower_bound", schedule.lower_bound},
                        {"kpbs_feasible", schedule.kpbs_feasible},
                        {"steps", std::move(steps)}};
  if (!schedule.notes.empty()) out["notes"] = schedule.notes;
  return out;
}

}  // namespace ringsim::io
