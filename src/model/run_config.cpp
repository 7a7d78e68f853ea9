#include "model/run_config.hpp"


namespace ringsim {

const char* to_string(RingSelection s) {
  switch (s) {
    case RingSelection::random: return "random";
    case RingSelection::hosts: return "hosts";
    case RingSelection::planner: return "planner";
  }
  return "";
}
const char* to_string(TargetMode m) { return m == TargetMode::oracle ? "oracle" : "measured"; }
const char* to_string(NetworkModel m) { return m == NetworkModel::linear ? "linear" : "lv08"; }

}  // namespace ringsim
