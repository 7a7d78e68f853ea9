// Scheme `forecast` (forecast.cpp: the rule and its reasons): the constants the rule is made of,
// which the tests compute their expected iterations from.
#pragma once

#include "policy/forecasters.hpp"

namespace ringsim::policy::forecast_rule {

// Iterations ahead over which a move's forecast gain is counted (fewer when fewer are left).
constexpr int horizon = 10;
// A move is asked for when its forecast gain exceeds this many times its predicted cost.
constexpr double margin = 1.5;
// Looks (all-gathers) are taken periodically when they cost at most this share of the
// iterations between them (adaptive's information budget).
constexpr double look_share = 0.03;
// The backtests of the forecast gain whose realized share weighs every forecast gain.
constexpr std::size_t backtests = 10;
// The members' ensembles.
constexpr ForecastSettings settings{};

}  // namespace ringsim::policy::forecast_rule
