// KPBS moves (kpbs_moves.cpp): columns staged from a storage cluster or handed over at a rebuild,
// scheduled by the backbone planners.
#pragma once

#include "sim/ring_run.hpp"

namespace ringsim::sim {

void expect_columns(RingRun& r, const std::vector<ColumnInterval>& intervals, bool overlap);
void await_columns(RingRun& r, std::size_t i);
void stage_matrix(RingRun* r);
void rebuild_point(RingRun& r, std::size_t i, int it);
void attach_storage(Platform& zone, const Platform& source, const StagingConfig& st,
                    const std::vector<std::size_t>& receivers, const std::string& default_gateway,
                    const std::function<std::size_t(std::size_t)>& zone_link);
ColumnTransfer plan_staging(const StagingConfig& st, const sg4::Engine& e, const RingRun& r,
                            const std::vector<ColumnInterval>& wanted);

}  // namespace ringsim::sim
