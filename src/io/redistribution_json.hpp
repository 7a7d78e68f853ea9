// JSON form of ring redistribution instances and plans (the `ringsim redistribute` contract of
// docs/design.md).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/redistribution.hpp"

namespace ringsim::io {

struct RedistributionRequest {
  RingInstance instance;
  std::string planner = "auto";
};

// The most processors of an instance read from JSON (2^24, the largest ring `ringsim bench
// redistribution` plans).
constexpr std::size_t kMaxProcessors = std::size_t{1} << 24;

// Throws InputError naming the problem: missing fields, wrong types, non-integer counts, and
// everything validate() rejects.
RedistributionRequest parse_redistribution_request(const nlohmann::json& doc);

// The same from JSON text, read without building a tree; `where` names the source in messages.
RedistributionRequest parse_redistribution_text(const std::string& text, const std::string& where);

nlohmann::json plan_to_json(const RedistributionPlan& plan);

// The same document as plan_to_json(plan).dump(), written directly: plans of a million
// processors have a million blocks, and building a JSON tree first costs more than planning.
std::string plan_to_json_text(const RedistributionPlan& plan);
// The same text written to `os` as it is produced (in pieces), never held whole.
void write_plan_json(std::ostream& os, const RedistributionPlan& plan);

class JsonText;
// The same text for a plan whose transfers come one by one (stream_redistribution): the head
// (every key but "transfers", `head.transfers` unused), each transfer, then finish().
class PlanJsonWriter {
 public:
  PlanJsonWriter(std::ostream& os, const RedistributionPlan& head);
  PlanJsonWriter(const PlanJsonWriter&) = delete;
  PlanJsonWriter& operator=(const PlanJsonWriter&) = delete;
  ~PlanJsonWriter();
  void transfer(const Transfer& t);
  void finish();

 private:
  void spill();
  std::ostream& os_;
  std::unique_ptr<JsonText> j_;
  std::size_t transfers_ = 0;
};

// `redistribute --summary`: the same keys without "transfers", with "summary" naming how the time
// was obtained (a lemma's closed form, or the algorithm's schedule built and dropped).
std::string summary_to_json_text(const RedistributionPlan& plan, const std::string& basis);

}  // namespace ringsim::io
