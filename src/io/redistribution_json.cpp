#include "io/redistribution_json.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "io/json_input.hpp"
#include "model/errors.hpp"

namespace ringsim::io {
namespace {

enum class Field { none, bidirectional, loads, targets, cost_next, cost_prev, algorithm };

Field field_of(const std::string& key) {
  static const std::pair<const char*, Field> names[] = {
      {"bidirectional", Field::bidirectional}, {"loads", Field::loads},         {"targets", Field::targets},
      {"cost_next", Field::cost_next},         {"cost_prev", Field::cost_prev}, {"algorithm", Field::algorithm}};
  for (const auto& [name, f] : names)
    if (key == name) return f;
  throw InputError("unknown key '" + key + "' in the instance");
}

// A SAX reader straight into RingInstance: a million-processor instance is read without building
// a JSON tree (the tree costs more than planning). Every error names the key and the position.
class RequestReader : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit RequestReader(std::string where) : where_(std::move(where)) {}

  RedistributionRequest take() {
    for (const char* key : {"loads", "targets", "cost_next"})
      if (!seen_.count(key)) throw InputError(std::string("missing field '") + key + "'");
    return std::move(req_);
  }

  bool null() override { return scalar("null"); }
  bool boolean(bool v) override {
    if (depth_ == 1 && field_ == Field::bidirectional) { req_.instance.bidirectional = v; return true; }
    return scalar("a boolean");
  }
  bool number_integer(number_integer_t v) override { return integer(v, true); }
  bool number_unsigned(number_unsigned_t v) override {
    return integer(static_cast<number_integer_t>(v), v <= static_cast<number_unsigned_t>(INT64_MAX));
  }
  bool number_float(number_float_t v, const string_t&) override {
    if (depth_ == 2 && (field_ == Field::cost_next || field_ == Field::cost_prev)) return push_cost(v);
    return scalar("a fractional number");
  }
  bool string(string_t& v) override {
    if (depth_ == 1 && field_ == Field::algorithm) { req_.planner = v; return true; }
    return scalar("a string");
  }
  bool binary(binary_t&) override { return scalar("binary data"); }
  bool start_object(std::size_t) override {
    if (depth_ == 0) { depth_ = 1; return true; }
    return scalar("an object");
  }
  bool end_object() override { depth_ = 0; return true; }
  bool key(string_t& k) override {
    field_ = field_of(k);
    // JSON leaves a repeated key undefined: the second "loads" would silently replace the first.
    if (!seen_.insert(k).second) throw InputError("duplicate key '" + k + "' in " + where_ + " (each key once)");
    index_ = 0;
    return true;
  }
  bool start_array(std::size_t) override {
    if (depth_ == 0) throw InputError("the instance must be a JSON object");
    if (depth_ == 1 && is_array_field()) {
      depth_ = 2;
      clear_array();
      return true;
    }
    return scalar("an array");
  }
  bool end_array() override { depth_ = 1; return true; }
  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& e) override {
    if (e.id == 406)  // a number beyond a double's range (1e400): finite values only
      throw InputError("number '" + token + "' in " + where_ + " at byte " + std::to_string(position) +
                       " is beyond a double's range");
    throw InputError("malformed JSON in " + where_ + " at byte " + std::to_string(position));
  }

 private:
  bool is_array_field() const {
    return field_ == Field::loads || field_ == Field::targets || field_ == Field::cost_next ||
           field_ == Field::cost_prev;
  }
  const char* name() const {
    switch (field_) {
      case Field::bidirectional: return "bidirectional";
      case Field::loads: return "loads";
      case Field::targets: return "targets";
      case Field::cost_next: return "cost_next";
      case Field::cost_prev: return "cost_prev";
      case Field::algorithm: return "algorithm";
      case Field::none: break;
    }
    return "";
  }
  void clear_array() {
    if (field_ == Field::loads) req_.instance.loads.clear();
    if (field_ == Field::targets) req_.instance.targets.clear();
    if (field_ == Field::cost_next) req_.instance.cost_next.clear();
    if (field_ == Field::cost_prev) req_.instance.cost_prev.clear();
  }
  std::string element() const { return std::string(name()) + "[" + std::to_string(index_) + "]"; }

  // A value where the reader did not expect one of its kind: say what was expected.
  bool scalar(const char*) {
    if (depth_ == 0) throw InputError("the instance must be a JSON object");
    if (depth_ == 2)
      throw InputError(element() + (field_ == Field::loads || field_ == Field::targets ? " must be an integer"
                                                                                       : " must be a number"));
    switch (field_) {
      case Field::bidirectional: throw InputError("'bidirectional' must be true or false");
      case Field::algorithm: throw InputError("'algorithm' must be a string");
      case Field::loads:
      case Field::targets: throw InputError(std::string("'") + name() + "' must be an array of integers");
      default: throw InputError(std::string("'") + name() + "' must be an array of numbers");
    }
  }
  bool integer(number_integer_t v, bool representable) {
    if (depth_ == 2 && (field_ == Field::loads || field_ == Field::targets)) {
      if (!representable)
        throw InputError(element() + " is out of range: at most " + std::to_string(kMaxTotalItems) +
                         " (2^62) items in all");
      count_entry();
      (field_ == Field::loads ? req_.instance.loads : req_.instance.targets).push_back(v);
      ++index_;
      return true;
    }
    if (depth_ == 2 && (field_ == Field::cost_next || field_ == Field::cost_prev))
      return push_cost(static_cast<double>(v));
    return scalar("an integer");
  }
  // The arrays grow as they are read: their length is checked before each entry is held.
  void count_entry() const {
    if (index_ >= kMaxProcessors)
      throw InputError(std::string("'") + name() + "' has more than " + std::to_string(kMaxProcessors) +
                       " entries (processors), the most ringsim plans (each processor's loads, costs and "
                       "planning state are held in memory)");
  }
  bool push_cost(double v) {
    count_entry();
    (field_ == Field::cost_next ? req_.instance.cost_next : req_.instance.cost_prev).push_back(v);
    ++index_;
    return true;
  }

  std::string where_;
  RedistributionRequest req_;
  Field field_ = Field::none;
  int depth_ = 0;
  std::size_t index_ = 0;
  std::set<std::string> seen_;
};

}  // namespace

RedistributionRequest parse_redistribution_text(const std::string& text, const std::string& where) {
  RequestReader reader(where);
  try {
    nlohmann::json::sax_parse(text, &reader);
  } catch (const nlohmann::json::exception& e) {  // e.g. a number too large for a double
    throw InputError("malformed JSON in " + where + ": " + e.what());
  }
  auto req = reader.take();
  validate(req.instance);
  return req;
}

RedistributionRequest parse_redistribution_request(const nlohmann::json& doc) {
  return parse_redistribution_text(doc.dump(), "the instance");
}

namespace {

// The bound a plan states: its time and bound are two roundings of one value where the time meets
// the bound (an optimal plan is within 1e-9 of it), and a time below its own lower bound would
// contradict the answer, so the bound stated is never above the time.
double stated_lower_bound(const RedistributionPlan& plan) { return std::min(plan.lower_bound, plan.time); }

}  // namespace

nlohmann::json plan_to_json(const RedistributionPlan& plan) {
  nlohmann::json transfers = nlohmann::json::array();
  for (const auto& t : plan.transfers) {
    transfers.push_back({{"from", t.from}, {"to", t.to}, {"direction", to_string(t.dir)},
                         {"items", t.items}, {"start", t.start}, {"end", t.end}});
    if (t.period != 0.0) transfers.back()["period"] = t.period;  // paced; absent: back to back
  }
  nlohmann::json out = {{"algorithm", plan.planner},
                        {"time", plan.time},
                        {"lower_bound", stated_lower_bound(plan)},
                        {"optimal", plan.optimal},
                        {"send_next", plan.send_next},
                        {"send_prev", plan.send_prev},
                        {"transfers", std::move(transfers)}};
  if (!plan.notes.empty()) out["notes"] = plan.notes;
  return out;
}

// JSON text built by hand, in the very form nlohmann::json dumps it.
class JsonText {
 public:
  void raw(const char* s) { out_ += s; }
  void number(double x) {
    // JSON has no inf or NaN: the planners refuse instances whose times could leave the doubles.
    if (!std::isfinite(x)) throw InputError("the answer holds a time beyond a double's range (" + std::to_string(x) + ")");
    // Integral values print as nlohmann does ("3.0"), others in shortest round-trip form.
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    out_.append(buf, r.ptr);
    if (std::find_if(buf, r.ptr, [](char c) { return c == '.' || c == 'e' || c == 'n' || c == 'i'; }) == r.ptr)
      out_ += ".0";
  }
  void integer(long long x) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    out_.append(buf, r.ptr);
  }
  void string(const std::string& s) { out_ += nlohmann::json(s).dump(); }
  template <class T>
  void integers(const std::vector<T>& v) {
    out_ += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) out_ += ',';
      integer(static_cast<long long>(v[i]));
    }
    out_ += ']';
  }
  std::string& str() { return out_; }

 private:
  std::string out_;
};

namespace {

// The keys before "summary" / "time", in the order nlohmann::json (a sorted map) writes them.
void write_plan_head(JsonText& j, const RedistributionPlan& plan) {
  j.raw("{\"algorithm\":");
  j.string(plan.planner);
  j.raw(",\"lower_bound\":");
  j.number(stated_lower_bound(plan));
  if (!plan.notes.empty()) {
    j.raw(",\"notes\":[");
    for (std::size_t i = 0; i < plan.notes.size(); ++i) {
      if (i) j.raw(",");
      j.string(plan.notes[i]);
    }
    j.raw("]");
  }
  j.raw(",\"optimal\":");
  j.raw(plan.optimal ? "true" : "false");
  j.raw(",\"send_next\":");
  j.integers(plan.send_next);
  j.raw(",\"send_prev\":");
  j.integers(plan.send_prev);
}

}  // namespace

// Pieces of about 1 MB: the text of a million blocks is never held whole.
constexpr std::size_t kPiece = 1 << 20;

PlanJsonWriter::PlanJsonWriter(std::ostream& os, const RedistributionPlan& head)
    : os_(os), j_(std::make_unique<JsonText>()) {
  j_->str().reserve(kPiece + 24 * head.send_next.size() + 256);
  write_plan_head(*j_, head);
  j_->raw(",\"time\":");
  j_->number(head.time);
  j_->raw(",\"transfers\":[");
}

PlanJsonWriter::~PlanJsonWriter() = default;

void PlanJsonWriter::transfer(const Transfer& t) {
  JsonText& j = *j_;
  j.raw(transfers_++ ? ",{\"direction\":\"" : "{\"direction\":\"");
  j.raw(to_string(t.dir));
  j.raw("\",\"end\":");
  j.number(t.end);
  j.raw(",\"from\":");
  j.integer(static_cast<long long>(t.from));
  j.raw(",\"items\":");
  j.integer(t.items);
  if (t.period != 0.0) {
    j.raw(",\"period\":");
    j.number(t.period);
  }
  j.raw(",\"start\":");
  j.number(t.start);
  j.raw(",\"to\":");
  j.integer(static_cast<long long>(t.to));
  j.raw("}");
  if (j.str().size() >= kPiece) spill();
}

void PlanJsonWriter::finish() {
  j_->raw("]}");
  spill();
}

void PlanJsonWriter::spill() {
  os_.write(j_->str().data(), static_cast<std::streamsize>(j_->str().size()));
  j_->str().clear();
}

void write_plan_json(std::ostream& os, const RedistributionPlan& plan) {
  PlanJsonWriter w(os, plan);
  for (const Transfer& t : plan.transfers) w.transfer(t);
  w.finish();
}

std::string plan_to_json_text(const RedistributionPlan& plan) {
  std::ostringstream os;
  write_plan_json(os, plan);
  return std::move(os).str();
}

std::string summary_to_json_text(const RedistributionPlan& plan, const std::string& basis) {
  JsonText j;
  j.str().reserve(24 * plan.send_next.size() + 512);
  write_plan_head(j, plan);
  j.raw(",\"summary\":");
  j.string(basis);
  j.raw(",\"time\":");
  j.number(plan.time);
  j.raw("}");
  return std::move(j.str());
}

}  // namespace ringsim::io
